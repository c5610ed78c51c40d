import { CuratorCache, InterProcessMutex } from '@zkwire/recipes';
import {
  callRecorder,
  eventually,
  startFaultProxy,
  startZooKeeper,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  connect,
  InvalidArgumentError,
  op,
  type WatchEvent,
  type Watcher,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors } from './faults-helpers.js';

failOnProcessErrors();

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
});

/** The server paths the server lists as watched by `sessionId` (the `wchp` four-letter word). */
async function watchedPaths(sessionId: bigint): Promise<string[]> {
  const text = await server.fourLetterWord('wchp');
  const session = `0x${sessionId.toString(16)}`;
  const watched: string[] = [];
  let path: string | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('/')) path = line.trim();
    else if (path !== undefined && line.trim() === session) watched.push(path);
  }
  return watched;
}

function text(data: Uint8Array | null | undefined): string | undefined {
  return data === null || data === undefined ? undefined : new TextDecoder().decode(data);
}

describe('chroot views', () => {
  it('takes and gives paths relative to the root: calls, created paths, multi results, ephemerals', async () => {
    await zk.create('/t1/a', null, { createParents: true });
    await using view = zk.chroot('/t1/a');
    expect(view.chrootPrefix).toBe('/t1/a');
    expect(view.sessionId).toBe(zk.sessionId);
    expect(view.state).toBe('connected');

    expect(await view.create('/x', 'data')).toBe('/x');
    expect((await zk.getData('/t1/a/x')).data.toString()).toBe('data');
    expect((await view.getData('/x')).data.toString()).toBe('data');
    expect(await view.create('/q-', null, { mode: 'persistent-sequential' })).toMatch(/^\/q-\d{10}$/);
    expect((await view.create2('/y', 'y')).path).toBe('/y');
    expect((await view.getChildren('/')).sort()).toEqual(['q-0000000001', 'x', 'y']);
    const results = await view.multi([op.create('/m', 'v'), op.setData('/x', 'w', -1), op.check('/y', 0)]);
    expect(results[0]).toMatchObject({ type: 'create', path: '/m' });
    expect(results.map((r) => r.type)).toEqual(['create', 'setData', 'check']);
    expect((await zk.getData('/t1/a/x')).data.toString()).toBe('w');
    expect(await view.create('/p/c', null, { createParents: true })).toBe('/p/c');

    // Ephemerals: the view's own under its root, never the session's others outside it (nor a sibling
    // whose name merely starts with the root's).
    await zk.create('/t1/ab', null);
    await zk.create('/t1/ab/outside', null, { mode: 'ephemeral' });
    await zk.create('/t1/outside', null, { mode: 'ephemeral' });
    const eph = await view.create('/e-', null, { mode: 'ephemeral-sequential' });
    expect(eph).toMatch(/^\/e-\d{10}$/);
    expect(await view.getEphemerals()).toEqual([eph]);
    expect(await view.getEphemerals('/e')).toEqual([eph]);
    expect(await view.getEphemerals('/x')).toEqual([]);
    expect((await zk.getEphemerals('/t1')).sort()).toEqual([`/t1/a${eph}`, '/t1/ab/outside', '/t1/outside']);

    expect(view.toServerPath('/x')).toBe('/t1/a/x');
    expect(view.toClientPath('/t1/a/x')).toBe('/x');
    expect(view.toClientPath('/t1/a')).toBe('/');

    const ops = await view.multiRead([
      { type: 'getData', path: '/x' },
      { type: 'getChildren', path: '/p' },
    ]);
    expect(ops).toMatchObject([{ type: 'getData' }, { type: 'getChildren', children: ['c'] }]);

    await view.deleteRecursive('/p');
    expect(await zk.exists('/t1/a/p')).toBeNull();
    await view.delete('/m');
    expect(await view.exists('/m')).toBeNull();
  });

  it('delivers watch events with view paths, the root itself as "/"', async () => {
    await zk.create('/t2/a', null, { createParents: true });
    await using view = zk.chroot('/t2/a');
    const children = callRecorder<WatchEvent>();
    const created = callRecorder<WatchEvent>();
    await view.getChildren('/', { watch: children.listener });
    await view.exists('/w', { watch: created.listener });
    await zk.create('/t2/a/w');
    expect(await children.first).toMatchObject({ type: 'childrenChanged', path: '/' });
    expect(await created.first).toMatchObject({ type: 'created', path: '/w' });

    const persistent = callRecorder<WatchEvent>();
    await view.addWatch('/w', 'persistent-recursive', persistent.listener);
    await zk.create('/t2/a/w/deep');
    expect(await persistent.first).toMatchObject({ type: 'created', path: '/w/deep' });

    await zk.create('/t2/a/v');
    const loop = view.watchPersistent('/v')[Symbol.asyncIterator]();
    const first = loop.next();
    // The loop's watch is armed by its first read; wait until the server has it, then change the node.
    await eventually(async () => (await watchedPaths(zk.sessionId)).includes('/t2/a/v'), 'the loop watch');
    await zk.setData('/t2/a/v', 'changed');
    expect((await first).value).toMatchObject({ type: 'dataChanged', path: '/v' });
    await loop.return?.();
  });

  it('composes views of views', async () => {
    await zk.create('/t3/a/b', null, { createParents: true });
    await using outer = zk.chroot('/t3');
    await using inner = outer.chroot('/a/b');
    expect(inner.chrootPrefix).toBe('/t3/a/b');
    expect(await inner.create('/n', 'n')).toBe('/n');
    expect(await outer.exists('/a/b/n')).not.toBeNull();
    expect((await zk.getData('/t3/a/b/n')).data.toString()).toBe('n');
    const [created] = await inner.multi([op.create('/m', null)]);
    expect(created).toMatchObject({ path: '/m' });
    const changed = callRecorder<WatchEvent>();
    await inner.getData('/n', { watch: changed.listener });
    await zk.setData('/t3/a/b/n', 'changed');
    expect(await changed.first).toMatchObject({ type: 'dataChanged', path: '/n' });
    expect(inner.toServerPath('/n')).toBe('/t3/a/b/n');
    expect(inner.toClientPath('/t3/a/b/n')).toBe('/n');
    // `/` is the parent's own root.
    await using same = inner.chroot('/');
    expect(await same.getChildren('/').then((c) => c.sort())).toEqual(['m', 'n']);
  });

  it("fires the watches of two views on one server path, each with its own view's path", async () => {
    await zk.create('/t4/a/x', null, { createParents: true });
    await using wide = zk.chroot('/t4');
    await using narrow = zk.chroot('/t4/a');
    const seen: string[] = [];
    // One function in both views: each view arms its own watch and reports its own path.
    const watcher: Watcher = (e) => seen.push(`${e.type} ${e.path}`);
    await wide.getData('/a/x', { watch: watcher });
    await narrow.getData('/x', { watch: watcher });
    const parent = callRecorder<WatchEvent>();
    await zk.getData('/t4/a/x', { watch: parent.listener });
    await zk.setData('/t4/a/x', 'v');
    await parent.first;
    await eventually(() => seen.length === 2, 'both views fired');
    expect(seen.sort()).toEqual(['dataChanged /a/x', 'dataChanged /x']);
  });

  it("removes and checks only the view's own watchers, also without a watcher named", async () => {
    await zk.create('/t10/a/x', null, { createParents: true });
    await using view = zk.chroot('/t10/a');
    await using other = zk.chroot('/t10');
    const mine = callRecorder<WatchEvent>();
    const theirs = callRecorder<WatchEvent>();
    const parents = callRecorder<WatchEvent>();
    // One-shot watches only: the three share one connection, and the server keeps one watch mode per path
    // for a connection, so a persistent watch here would change what the server's checkWatches says.
    await view.getData('/x', { watch: mine.listener });
    await other.getData('/a/x', { watch: theirs.listener });
    await zk.exists('/t10/a/x', { watch: parents.listener });
    await view.checkWatches('/x', 'data');
    await expect(view.checkWatches('/x', 'data', { watcher: theirs.listener })).rejects.toMatchObject({
      code: 'NOWATCHER',
    });
    await view.removeWatches('/x', 'data');
    const removed = [{ type: 'dataWatchRemoved', path: '/x' }];
    expect(mine.calls).toEqual(removed);
    await expect(view.checkWatches('/x', 'data')).rejects.toMatchObject({ code: 'NOWATCHER' });
    await expect(view.removeWatches('/x', 'data')).rejects.toMatchObject({ code: 'NOWATCHER' });
    // The parent's and the other view's watches on the same node are still there and fire.
    await other.checkWatches('/a/x', 'data', { watcher: theirs.listener });
    await zk.checkWatches('/t10/a/x', 'data', { watcher: parents.listener });
    await zk.setData('/t10/a/x', 'v');
    expect(await theirs.first).toMatchObject({ type: 'dataChanged', path: '/a/x' });
    expect(await parents.first).toMatchObject({ type: 'dataChanged', path: '/t10/a/x' });
    await zk.sync('/');
    expect(mine.calls).toEqual(removed);
  });

  it('closing a view removes its watches and listeners, never the session', async () => {
    await zk.create('/t5/a/p', null, { createParents: true });
    await zk.create('/t5/a/shared', null);
    const sessionId = zk.sessionId;
    const stateListeners = zk.listenerCount('state');
    const view = zk.chroot('/t5/a');
    expect(zk.listenerCount('state')).toBe(stateListeners + 1);
    const viewEvents: WatchEvent[] = [];
    const watcher: Watcher = (e) => viewEvents.push(e);
    await view.addWatch('/p', 'persistent', watcher);
    await view.exists('/q', { watch: watcher });
    await view.getData('/shared', { watch: watcher });
    const parentShared = callRecorder<WatchEvent>();
    await zk.getData('/t5/a/shared', { watch: parentShared.listener });
    await view.checkWatches('/p', 'any', { watcher });
    const before = await watchedPaths(sessionId);
    expect(before).toEqual(expect.arrayContaining(['/t5/a/p', '/t5/a/q', '/t5/a/shared']));

    await view.close();
    expect(view.isClosed).toBe(true);
    expect(zk.listenerCount('state')).toBe(stateListeners);
    // The session and the parent go on; the parent's own watch on the shared path stays.
    expect(zk.state).toBe('connected');
    expect(zk.sessionId).toBe(sessionId);
    const after = await watchedPaths(sessionId);
    expect(after).not.toContain('/t5/a/p');
    expect(after).not.toContain('/t5/a/q');
    expect(after).toContain('/t5/a/shared');
    await expect(zk.checkWatches('/t5/a/p', 'any')).rejects.toMatchObject({ code: 'NOWATCHER' });
    await zk.setData('/t5/a/shared', 'x');
    await zk.setData('/t5/a/p', 'x');
    await zk.create('/t5/a/q');
    expect(await parentShared.first).toMatchObject({ type: 'dataChanged', path: '/t5/a/shared' });
    await zk.sync('/');
    expect(viewEvents).toEqual([]);

    // A closed view refuses calls; its parent does not.
    await expect(view.getData('/p')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(view.create('/z')).rejects.toBeInstanceOf(ClientClosedError);
    const refused = view.watchPersistent('/p')[Symbol.asyncIterator]();
    await expect(refused.next()).rejects.toBeInstanceOf(ClientClosedError);
    expect(await zk.exists('/t5/a/p')).not.toBeNull();
  });

  it("forwards the parent's connection states, and ends its states() loop when it closes", async () => {
    await using proxy = await startFaultProxy({ host: server.host, port: server.port });
    await using client = await connect({ connectString: `${proxy.host}:${proxy.port}` });
    const view = client.chroot('/');
    const seen: string[] = [];
    view.on('state', (state) => seen.push(state));
    const loop = view.states()[Symbol.asyncIterator]();
    const next = loop.next();
    proxy.cut();
    expect(await next).toEqual({ done: false, value: 'suspended' });
    await eventually(() => seen.includes('reconnected'), 'reconnected through the view');
    expect(seen.slice(0, 2)).toEqual(['suspended', 'reconnected']);
    expect(await loop.next()).toEqual({ done: false, value: 'reconnected' });
    const pending = loop.next();
    await view.close();
    // The view's loop ends; the parent's session carries on.
    expect(await pending).toMatchObject({ done: true });
    expect(client.state).toBe('connected');
  });

  it("reports a throwing watcher as the view's watcherError, with the view's path", async () => {
    await zk.create('/t9/a/x', null, { createParents: true });
    await using view = zk.chroot('/t9/a');
    const reported = new Promise<[unknown, WatchEvent]>((resolve) => {
      view.once('watcherError', (error, event) => resolve([error, event]));
    });
    await view.getData('/x', {
      watch: () => {
        throw new Error('watcher bug');
      },
    });
    await zk.setData('/t9/a/x', 'v');
    const [error, event] = await reported;
    expect((error as Error).message).toBe('watcher bug');
    expect(event).toMatchObject({ type: 'dataChanged', path: '/x' });
  });

  it('runs a CuratorCache and an InterProcessMutex from @zkwire/recipes', async () => {
    await zk.create('/t6/a/cache/one', '1', { createParents: true });
    await using view = zk.chroot('/t6/a');
    await using other = await connect({ connectString: server.connectString });
    await using otherView = other.chroot('/t6/a');

    await using cache = new CuratorCache(view, '/cache');
    await cache.start();
    expect(await cache.awaitInitialized({ timeoutMs: 20_000 })).toBe(true);
    expect(text(cache.get('/cache/one')?.data)).toBe('1');
    await zk.create('/t6/a/cache/two', '2');
    await zk.setData('/t6/a/cache/one', 'uno');
    await eventually(
      () => text(cache.get('/cache/two')?.data) === '2' && text(cache.get('/cache/one')?.data) === 'uno',
      'the cache follows the tree',
    );
    expect(cache.get('/t6/a/cache/two')).toBeUndefined();

    const mine = new InterProcessMutex(view, '/lock');
    const theirs = new InterProcessMutex(otherView, '/lock');
    expect(await mine.acquire()).toBe(true);
    const [holder] = await mine.getParticipantNodes();
    expect(holder).toMatch(/^\/lock\/.*lock-\d{10}$/);
    expect(await zk.getChildren('/t6/a/lock')).toEqual([holder?.slice('/lock/'.length)]);
    const waiting = theirs.acquire();
    await eventually(async () => (await zk.getChildren('/t6/a/lock')).length === 2, 'the second contender');
    await mine.release();
    expect(await waiting).toBe(true);
    await theirs.release();
    expect(await zk.getChildren('/t6/a/lock')).toEqual([]);
  });

  it('refuses a bad root or path before anything is sent', async () => {
    await zk.create('/t7/a', null, { createParents: true });
    for (const root of ['relative', '/trailing/', '', '/a//b', 42 as unknown as string]) {
      expect(() => zk.chroot(root)).toThrow(InvalidArgumentError);
    }
    await using view = zk.chroot('/t7/a');
    // Unchecked, 'x' would become /t7/ax.
    await expect(view.create('x')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(view.multi([op.create('x', null)])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(view.getData('')).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await zk.exists('/t7/ax')).toBeNull();
    // A sequential create named by the server alone goes under the view's root.
    const named = await view.create('/', null, { mode: 'persistent-sequential' });
    expect(named).toMatch(/^\/\d{10}$/);
    expect(await zk.exists(`/t7/a${named}`)).not.toBeNull();
  });

  it("refuses calls on a view of a closed client with the client's closed error", async () => {
    const closed = await connect({ connectString: server.connectString });
    await closed.close();
    const view = closed.chroot('/t8');
    await expect(view.getData('/x')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(view.create('/x')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(view.connected()).rejects.toBeInstanceOf(ClientClosedError);
    await view.close();
  });
});
