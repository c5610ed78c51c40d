/**
 * ZooKeeper's order promise, end to end on a real server (docs/contracts.md, "Order"):
 * - issue order: calls made in one tick, gated ones (addWatch, checkWatches, removeWatches, multiRead,
 *   getAllChildrenNumber, getEphemerals) among them, execute in call order, whether the server's version is
 *   known yet or not;
 * - delivery order: when replies and watch events reach the client in ONE socket read (the fault proxy holds
 *   the server's bytes and lets them go in one chunk), promise reactions and watchers run in frame order.
 * Each case is one the Java 3.8 client passes and the client failed before the ordering fix.
 */
import { type FaultProxy, startFaultProxy } from '@zkwire/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect, InvalidArgumentError, type WatchEvent, type ZooKeeperClient } from '../src/index.js';
import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();
const zkServer = useProxiedServer();

let zk: ZooKeeperClient;
let base = '';
let caseNo = 0;

/** A fresh client per case: `knownVersion` first asks something gated, so that the version is cached. */
async function client(knownVersion: boolean): Promise<ZooKeeperClient> {
  const c = await connect({ connectString: zkServer.server.connectString });
  if (knownVersion) await c.getAllChildrenNumber('/');
  return c;
}

beforeEach(async () => {
  base = `/order-${++caseNo}`;
  await zkServer.admin.create(base);
});

describe.each([
  ['version known', true],
  ['version not yet known', false],
])('issue order (%s)', (_label, knownVersion) => {
  beforeEach(async () => {
    zk = await client(knownVersion);
  });
  afterAll(async () => {
    await zk?.close();
  });

  it('addWatch, create, setData in one tick: the persistent watch sees created and dataChanged', async () => {
    const events: WatchEvent['type'][] = [];
    const path = `${base}/z`;
    await Promise.all([
      zk.addWatch(path, 'persistent', (e) => events.push(e.type)),
      zk.create(path),
      zk.setData(path, 'x'),
    ]);
    await zk.sync(path);
    expect(events).toEqual(['created', 'dataChanged']);
    await zk.close();
  });

  it('checkWatches and removeWatches ahead of a setData see the watch as it was at their place', async () => {
    const path = `${base}/a`;
    await zk.create(path);
    const seen: WatchEvent['type'][] = [];
    const w = (e: WatchEvent) => seen.push(e.type);
    await zk.getData(path, { watch: w });
    const [checked] = await Promise.all([
      zk.checkWatches(path, 'data', { watcher: w }),
      zk.setData(path, '1'),
    ]);
    expect(checked).toBeUndefined();
    expect(seen).toEqual(['dataChanged']);

    await zk.getData(path, { watch: w });
    await Promise.all([zk.removeWatches(path, 'data', { watcher: w }), zk.setData(path, '2')]);
    expect(seen).toEqual(['dataChanged', 'dataWatchRemoved']);
    await zk.close();
  });

  it('multiRead between two setData reads the first value', async () => {
    const path = `${base}/m`;
    await zk.create(path, '0');
    const [, read] = await Promise.all([
      zk.setData(path, '1'),
      zk.multiRead([{ type: 'getData', path }]),
      zk.setData(path, '2'),
    ]);
    expect(read[0]).toMatchObject({ type: 'getData' });
    expect((read[0] as { data: Buffer }).data.toString()).toBe('1');
    await zk.close();
  });

  it('getAllChildrenNumber counts at its place among creates and deletes', async () => {
    const [, one, , two] = await Promise.all([
      zk.create(`${base}/a`),
      zk.getAllChildrenNumber(base),
      zk.create(`${base}/b`),
      zk.getAllChildrenNumber(base),
      zk.delete(`${base}/a`),
    ]);
    expect([one, two]).toEqual([1, 2]);
    await zk.close();
  });

  it('getEphemerals lists an ephemeral deleted right after it', async () => {
    const [, listed] = await Promise.all([
      zk.create(`${base}/e1`, null, { mode: 'ephemeral' }),
      zk.getEphemerals(base),
      zk.delete(`${base}/e1`),
    ]);
    expect(listed).toEqual([`${base}/e1`]);
    await zk.close();
  });
});

it('futures created in one order and awaited in another executed in creation order (czxids)', async () => {
  zk = await client(false);
  const paths = Array.from({ length: 12 }, (_, i) => `${base}/n${i}`);
  // A gated call before every third create: the version probe is in flight while the others queue behind it.
  const gated: Promise<number>[] = [];
  const creates = paths.map((p, i) => {
    if (i % 3 === 1) gated.push(zk.getAllChildrenNumber(base));
    return zk.create2(p);
  });
  const results = await Promise.all([...creates].reverse());
  await Promise.all(gated);
  const czxids = results.reverse().map((r) => r.stat.czxid);
  expect(results.map((r) => r.path)).toEqual(paths);
  expect([...czxids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(czxids);
  await zk.close();
});

/**
 * Holds every byte the server sends through the proxy until {@link release}, which hands them on in one
 * chunk: the client then reads all the replies and events in one socket read.
 */
function holdServerBytes(proxy: FaultProxy) {
  const held: Buffer[] = [];
  proxy.corrupt('toClient', (chunk) => {
    held.push(Buffer.from(chunk));
    return Buffer.alloc(0);
  });
  return {
    /** Number of complete frames held whose xid is not a ping's (-2). */
    frames(): number {
      const bytes = Buffer.concat(held);
      let count = 0;
      for (let at = 0; at + 4 <= bytes.length; ) {
        const length = bytes.readInt32BE(at);
        if (at + 4 + length > bytes.length) break;
        if (bytes.readInt32BE(at + 4) !== -2) count++;
        at += 4 + length;
      }
      return count;
    },
    release(): void {
      proxy.clearCorruption();
      proxy.inject('toClient', Buffer.concat(held));
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('delivery order: replies and events read in one chunk', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy({ host: zkServer.server.host, port: zkServer.server.port });
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('create, the event it is followed by, then setData: reactions and watchers in frame order', async () => {
    const c = await connect({ connectString: proxy.connectString });
    const order: string[] = [];
    const a = `${base}/a`;
    await c.create(a);
    await c.getData(a, { watch: (e) => order.push(`w1:${e.type}`) });
    const hold = holdServerBytes(proxy);
    const done = Promise.all([
      c.create(`${base}/x`).then((p) => order.push(`create:${p}`)),
      c.setData(a, 'v').then(() => order.push('setData')),
    ]);
    await until(() => hold.frames() >= 3); // create reply, the dataChanged event, setData reply
    hold.release();
    await done;
    expect(order).toEqual([`create:${base}/x`, 'w1:dataChanged', 'setData']);
    await c.close();
  });

  it('every kind of result settles in frame order, gated calls and locally shaped ones included', async () => {
    const c = await connect({ connectString: proxy.connectString });
    await c.getAllChildrenNumber('/'); // the version is known: nothing waits for it
    const order: string[] = [];
    const n = `${base}/n`;
    await c.create(n, '0');
    const w = (e: WatchEvent) => order.push(`w:${e.type}`);
    await c.getData(n, { watch: w });
    await c.getChildren(n, { watch: w });
    const note = (name: string) => [() => order.push(name), () => order.push(`${name}!`)] as const;
    const hold = holdServerBytes(proxy);
    const done = Promise.all([
      c.create(`${base}/c1`).then(...note('create')),
      c.removeWatches(n, 'any', { watcher: w }).then(...note('removeWatches')),
      c.multiRead([{ type: 'getData', path: n }]).then(...note('multiRead')),
      c.getAllChildrenNumber(base).then(...note('count')),
      c.multi([{ type: 'setData', path: n, data: '1', version: -1 }]).then(...note('multi')),
      c.exists(`${base}/none`).then(...note('exists')),
      c.delete(`${base}/none`).then(...note('delete')),
      c.getEphemerals(base).then(...note('ephemerals')),
      c.create(`${base}/c2`, null, { createParents: true }).then(...note('create2')),
    ]);
    await until(() => hold.frames() >= 9);
    hold.release();
    await done;
    expect(order).toEqual([
      'create',
      // Both kinds the watcher was armed with are removed and told, before removeWatches settles.
      'w:childWatchRemoved',
      'w:dataWatchRemoved',
      'removeWatches',
      'multiRead',
      'count',
      'multi',
      'exists',
      'delete!',
      'ephemerals',
      'create2',
    ]);
    await c.close();
  });
});

describe('chroot root', () => {
  it("delete('/') under a chroot is refused by the server, as Java's; deleteRecursive('/') is refused here", async () => {
    await zkServer.admin.create(`${base}/app`);
    await zkServer.admin.create(`${base}/app/keep`);
    const c = await connect({ connectString: `${zkServer.server.connectString}${base}/app` });
    await expect(c.delete('/')).rejects.toMatchObject({ code: 'BADARGUMENTS' });
    await expect(c.deleteRecursive('/')).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await zkServer.admin.exists(`${base}/app/keep`)).not.toBeNull();
    await c.close();
  });
});
