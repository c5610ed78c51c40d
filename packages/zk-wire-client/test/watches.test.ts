import { callRecorder, startZooKeeper, versionAtLeast, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  isNoNode,
  NoWatcherError,
  type WatchEvent,
  type Watcher,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors, frameTap } from './faults-helpers.js';

failOnProcessErrors();

const EXISTS_OPCODE = 3;
/** getChildren is sent as getChildren2 (protocol/get-children.ts). */
const GET_CHILDREN_OPCODE = 12;

let server: ZooKeeperServer;
let zk: ZooKeeperClient;
let other: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString });
  other = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await zk?.close();
  await other?.close();
  await server?.[Symbol.asyncDispose]();
});

describe('removing persistent watches by their own type (3.9+, ZOOKEEPER-4472)', () => {
  it('removes the persistent or the recursive watch of a path alone, or refuses before sending on older servers', async () => {
    await zk.create('/by-type', 'x');
    const persistent: WatchEvent[] = [];
    const recursive: WatchEvent[] = [];
    await zk.addWatch('/by-type', 'persistent', (e) => persistent.push(e));
    await zk.addWatch('/by-type', 'persistent-recursive', (e) => recursive.push(e));
    if (!versionAtLeast(server.version, '3.9.0')) {
      await expect(zk.removeWatches('/by-type', 'persistent')).rejects.toMatchObject({
        code: 'UNSUPPORTEDBYSERVER',
        requiredVersion: '3.9.0',
      });
      return;
    }
    await zk.removeWatches('/by-type', 'persistent');
    expect(persistent).toMatchObject([{ type: 'persistentWatchRemoved', path: '/by-type' }]);
    await other.setData('/by-type', 'y');
    await settle();
    expect(persistent).toHaveLength(1); // removed: no dataChanged
    expect(recursive).toMatchObject([{ type: 'dataChanged', path: '/by-type' }]);
    await zk.checkWatches('/by-type', 'persistent-recursive');
    await expect(zk.checkWatches('/by-type', 'persistent')).rejects.toBeInstanceOf(NoWatcherError);
    await zk.removeWatches('/by-type', 'persistent-recursive');
    await other.setData('/by-type', 'z');
    await settle();
    expect(recursive).toMatchObject([
      { type: 'dataChanged', path: '/by-type' },
      { type: 'persistentWatchRemoved', path: '/by-type' },
    ]);
  });
});

describe('the zxid of an event', () => {
  const sendsZxid = () => versionAtLeast(server.version, '3.9.0');

  it('is the zxid of the change that fired it on 3.9+ servers, and absent before', async () => {
    await zk.create('/zxid', 'a');
    const data = callRecorder<WatchEvent>();
    await zk.getData('/zxid', { watch: data.listener });
    const changed = await other.setData('/zxid', 'b');
    const persistent: WatchEvent[] = [];
    if (versionAtLeast(server.version, '3.6.0')) {
      await zk.addWatch('/zxid', 'persistent', (e) => persistent.push(e));
    }
    const created = await other.create2('/zxid/child', 'c');
    await settle();
    const event = await data.first;
    if (sendsZxid()) {
      expect(event).toEqual({ type: 'dataChanged', path: '/zxid', zxid: changed.mzxid });
      expect(persistent).toEqual([{ type: 'childrenChanged', path: '/zxid', zxid: created.stat.czxid }]);
    } else {
      expect(event).toEqual({ type: 'dataChanged', path: '/zxid' });
      expect('zxid' in event).toBe(false);
    }
  });

  it('is absent from the events the client makes itself (a removed watch)', async () => {
    await zk.create('/zxid-removed', 'a');
    const removed = callRecorder<WatchEvent>();
    await zk.getData('/zxid-removed', { watch: removed.listener });
    await zk.removeWatches('/zxid-removed', 'data');
    expect(await removed.first).toEqual({ type: 'dataWatchRemoved', path: '/zxid-removed' });
  });
});

/** A round trip after which every event caused before it has been delivered. */
async function settle(): Promise<void> {
  await zk.sync('/');
  await new Promise((r) => setImmediate(r));
}

describe('one-shot watches', () => {
  it('exists on a missing node arms an exist watch that fires created', async () => {
    const w = callRecorder<WatchEvent>();
    expect(await zk.exists('/w-created', { watch: w.listener })).toBeNull();
    await other.create('/w-created');
    expect(await w.first).toMatchObject({ type: 'created', path: '/w-created' });
  });

  it('getData fires dataChanged, then deleted on a new read', async () => {
    await zk.create('/w-data', 'a');
    const changed = callRecorder<WatchEvent>();
    await zk.getData('/w-data', { watch: changed.listener });
    await other.setData('/w-data', 'b');
    expect(await changed.first).toMatchObject({ type: 'dataChanged', path: '/w-data' });
    const deleted = callRecorder<WatchEvent>();
    await zk.exists('/w-data', { watch: deleted.listener });
    await other.delete('/w-data');
    expect(await deleted.first).toMatchObject({ type: 'deleted', path: '/w-data' });
  });

  it('getChildren fires childrenChanged', async () => {
    await zk.create('/w-kids');
    const w = callRecorder<WatchEvent>();
    await zk.getChildren('/w-kids', { watch: w.listener });
    await other.create('/w-kids/x');
    expect(await w.first).toMatchObject({ type: 'childrenChanged', path: '/w-kids' });
  });

  it('a failed getData or getChildren arms nothing', async () => {
    const events: WatchEvent[] = [];
    const watcher: Watcher = (e) => events.push(e);
    await expect(zk.getData('/w-none', { watch: watcher })).rejects.toSatisfy(isNoNode);
    await expect(zk.getChildren('/w-none', { watch: watcher })).rejects.toSatisfy(isNoNode);
    await other.create('/w-none');
    await other.create('/w-none/c');
    await settle();
    expect(events).toEqual([]);
    await expect(zk.removeWatches('/w-none', 'any', { watcher })).rejects.toBeInstanceOf(NoWatcherError);
  });

  it('calls a watcher registered several ways once per event', async () => {
    await zk.create('/w-once', 'x');
    const events: WatchEvent[] = [];
    const watcher: Watcher = (e) => events.push(e);
    await zk.getData('/w-once', { watch: watcher });
    await zk.exists('/w-once', { watch: watcher });
    await zk.getChildren('/w-once', { watch: watcher });
    await other.delete('/w-once');
    await settle();
    expect(events).toMatchObject([{ type: 'deleted', path: '/w-once' }]);
  });

  it('delivers the event of its own write before the write resolves', async () => {
    await zk.create('/w-order', 'x');
    const order: string[] = [];
    await zk.getData('/w-order', { watch: () => order.push('event') });
    await zk.setData('/w-order', 'y').then(() => order.push('reply'));
    expect(order).toEqual(['event', 'reply']);
  });

  it('keeps working when a watcher throws', async () => {
    await zk.create('/w-throw', 'x');
    const reported: unknown[] = [];
    zk.on('watcherError', (error) => reported.push(error));
    const good = callRecorder<WatchEvent>();
    await zk.getData('/w-throw', {
      watch: () => {
        throw new Error('boom');
      },
    });
    await zk.getData('/w-throw', { watch: good.listener });
    await other.setData('/w-throw', 'y');
    expect(await good.first).toMatchObject({ type: 'dataChanged' });
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('boom');
    expect((await zk.getData('/w-throw')).data.toString()).toBe('y');
  });

  it('getChildren with a watch reads and arms in one request, so every later change fires it', async () => {
    const tap = frameTap();
    await using reader = await connect({
      connectString: server.connectString,
      connectionFactory: tap.factory,
    });
    await zk.create('/w-atomic');
    const requests = () => tap.frames.filter((f) => f.xid !== undefined && f.xid >= 0);
    const writers = (async () => {
      for (let i = 0; i < 60; i++) await other.create(`/w-atomic/n-${i}`);
    })();
    // Each round: list with a watch; the next change must fire it, or the list already shows it. A client
    // that listed first and armed the watch with a second request would miss the changes in between.
    let seen = 0;
    let rounds = 0;
    while (seen < 60) {
      const fired = callRecorder<WatchEvent>();
      const before = requests().length;
      const children = await reader.getChildren('/w-atomic', { watch: fired.listener });
      const sent = requests().slice(before);
      expect(sent.map((f) => [f.opcode, f.lastByte])).toEqual([[GET_CHILDREN_OPCODE, 1]]);
      rounds++;
      seen = children.length;
      if (seen >= 60) break;
      const event = await fired.first;
      expect(event).toMatchObject({ type: 'childrenChanged', path: '/w-atomic' });
      const after = await reader.getChildren('/w-atomic');
      expect(after.length).toBeGreaterThan(children.length);
    }
    await writers;
    expect(seen).toBe(60);
    expect(rounds).toBeGreaterThan(1);
    expect(requests().some((f) => f.opcode === EXISTS_OPCODE)).toBe(false);
  });
});

describe('persistent watches', () => {
  it('addWatch persistent gets every data and child change of the node, and stays', async () => {
    await zk.create('/p-node', 'x');
    const events: WatchEvent[] = [];
    const watcher: Watcher = (e) => events.push(e);
    await zk.addWatch('/p-node', 'persistent', watcher);
    await other.setData('/p-node', 'y');
    await other.setData('/p-node', 'z');
    await other.create('/p-node/c');
    await other.create('/p-node/c/deep');
    await settle();
    expect(events).toMatchObject([
      { type: 'dataChanged', path: '/p-node' },
      { type: 'dataChanged', path: '/p-node' },
      { type: 'childrenChanged', path: '/p-node' },
    ]);
    await zk.removeWatches('/p-node', 'any', { watcher });
    expect(events.at(-1)).toMatchObject({ type: 'persistentWatchRemoved', path: '/p-node' });
    await other.setData('/p-node', 'after');
    await settle();
    expect(events).toHaveLength(4);
  });

  it('watchPersistent recursive yields created, dataChanged and deleted for the subtree, no childrenChanged', async () => {
    await zk.create('/r-tree');
    const controller = new AbortController();
    const seen: WatchEvent[] = [];
    const consumer = (async () => {
      for await (const event of zk.watchPersistent('/r-tree', {
        recursive: true,
        signal: controller.signal,
      })) {
        seen.push(event);
        if (seen.length === 4) break;
      }
    })();
    // Make sure the watch is on the server before writing.
    while (
      !(await zk.checkWatches('/r-tree', 'any').then(
        () => true,
        () => false,
      ))
    )
      await settle();
    await other.create('/r-tree/a');
    await other.create('/r-tree/a/b', 'x');
    await other.setData('/r-tree/a/b', 'y');
    await other.delete('/r-tree/a/b');
    await consumer;
    expect(seen).toMatchObject([
      { type: 'created', path: '/r-tree/a' },
      { type: 'created', path: '/r-tree/a/b' },
      { type: 'dataChanged', path: '/r-tree/a/b' },
      { type: 'deleted', path: '/r-tree/a/b' },
    ]);
    // Breaking out removed the watch on the server too.
    await expect(zk.checkWatches('/r-tree', 'any')).rejects.toMatchObject({ code: 'NOWATCHER' });
  });
});

describe('one-shot and persistent watches on one path', () => {
  it('a one-shot read does not turn a persistent watch into a one-shot one (3.6-3.8 servers)', async () => {
    await zk.create('/mix', 'x');
    const persistent: WatchEvent[] = [];
    const oneShot: WatchEvent[] = [];
    const children: WatchEvent[] = [];
    await zk.addWatch('/mix', 'persistent', (e) => persistent.push(e));
    await zk.getData('/mix', { watch: (e) => oneShot.push(e) });
    await zk.getChildren('/mix', { watch: (e) => children.push(e) });
    await other.setData('/mix', '1');
    await other.setData('/mix', '2');
    await other.create('/mix/c');
    await other.setData('/mix', '3');
    await settle();
    expect(persistent.map((e) => e.type)).toEqual([
      'dataChanged',
      'dataChanged',
      'childrenChanged',
      'dataChanged',
    ]);
    expect(oneShot).toMatchObject([{ type: 'dataChanged', path: '/mix' }]);
    expect(children).toMatchObject([{ type: 'childrenChanged', path: '/mix' }]);
  });

  it('removing the one-shot data watches of a path keeps its persistent watch working', async () => {
    await zk.create('/mix2', 'x');
    const persistent: WatchEvent[] = [];
    await zk.addWatch('/mix2', 'persistent', (e) => persistent.push(e));
    const removed: WatchEvent[] = [];
    await zk.getData('/mix2', { watch: (e) => removed.push(e) });
    await zk.removeWatches('/mix2', 'data');
    expect(removed).toMatchObject([{ type: 'dataWatchRemoved', path: '/mix2' }]);
    await other.setData('/mix2', '1');
    await other.setData('/mix2', '2');
    await settle();
    expect(persistent).toHaveLength(2);
    expect(removed).toHaveLength(1);
  });

  it('a recursive watch keeps getting events when a node of its root is read with a watch', async () => {
    await zk.create('/rmix', 'x');
    const recursive: WatchEvent[] = [];
    await zk.addWatch('/rmix', 'persistent-recursive', (e) => recursive.push(e));
    const once = callRecorder<WatchEvent>();
    await zk.exists('/rmix', { watch: once.listener });
    await other.setData('/rmix', '1');
    await other.setData('/rmix', '2');
    await settle();
    expect(await once.first).toMatchObject({ type: 'dataChanged', path: '/rmix' });
    expect(once.calls).toHaveLength(1);
    expect(recursive).toHaveLength(2);
  });
});

describe('removing and checking watches', () => {
  it('removes one watcher by type, keeps the server watch for the others, and tells the removed one', async () => {
    await zk.create('/rm-one', 'x');
    const a: WatchEvent[] = [];
    const b: WatchEvent[] = [];
    const wa: Watcher = (e) => a.push(e);
    const wb: Watcher = (e) => b.push(e);
    await zk.getData('/rm-one', { watch: wa });
    await zk.getData('/rm-one', { watch: wb });
    await zk.removeWatches('/rm-one', 'data', { watcher: wa });
    expect(a).toMatchObject([{ type: 'dataWatchRemoved', path: '/rm-one' }]);
    await zk.checkWatches('/rm-one', 'data');
    await other.setData('/rm-one', 'y');
    await settle();
    expect(a).toHaveLength(1);
    expect(b).toMatchObject([{ type: 'dataChanged', path: '/rm-one' }]);
  });

  it('removes all child watches from the server', async () => {
    await zk.create('/rm-all');
    const events: WatchEvent[] = [];
    await zk.getChildren('/rm-all', { watch: (e) => events.push(e) });
    await zk.checkWatches('/rm-all', 'children');
    await zk.removeWatches('/rm-all', 'children');
    expect(events).toMatchObject([{ type: 'childWatchRemoved', path: '/rm-all' }]);
    await expect(zk.checkWatches('/rm-all', 'children')).rejects.toBeInstanceOf(NoWatcherError);
    await other.create('/rm-all/c');
    await settle();
    expect(events).toHaveLength(1);
  });

  it('checkWatches by type tells data from child watches', async () => {
    await zk.create('/chk', 'x');
    await zk.getData('/chk', { watch: () => {} });
    await zk.checkWatches('/chk', 'data');
    await expect(zk.checkWatches('/chk', 'children')).rejects.toMatchObject({
      code: 'NOWATCHER',
      path: '/chk',
    });
  });

  it('checkWatches with a watcher asks about that local watcher, before anything is sent', async () => {
    await zk.create('/chk-local', 'x');
    const mine = callRecorder<WatchEvent>();
    const stranger: Watcher = () => {};
    await zk.getData('/chk-local', { watch: mine.listener });
    await zk.checkWatches('/chk-local', 'data', { watcher: mine.listener });
    await zk.checkWatches('/chk-local', 'any', { watcher: mine.listener });
    // The server holds a data watch at the path, but not for this watcher.
    await expect(zk.checkWatches('/chk-local', 'data', { watcher: stranger })).rejects.toBeInstanceOf(
      NoWatcherError,
    );
    // A data watcher is not a child watcher.
    await expect(
      zk.checkWatches('/chk-local', 'children', { watcher: mine.listener }),
    ).rejects.toBeInstanceOf(NoWatcherError);
    // Once fired, the one-shot watcher is gone locally and on the server.
    await other.setData('/chk-local', 'y');
    await mine.first;
    await expect(zk.checkWatches('/chk-local', 'data', { watcher: mine.listener })).rejects.toBeInstanceOf(
      NoWatcherError,
    );
    await expect(zk.checkWatches('/chk-local', 'data')).rejects.toBeInstanceOf(NoWatcherError);
  });
});
