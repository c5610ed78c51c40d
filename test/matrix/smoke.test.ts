/*
 * The version matrix's smoke test: what a user relies on, against one real ZooKeeper release (the run's
 * ZKWIRE_ZK_VERSION; `npm run test:matrix` runs it on each of MATRIX_VERSIONS, `npm test` on the default).
 * Calls a release lacks must fail with UnsupportedByServerError before anything is sent; every other call must
 * behave as on the newest server.
 */

import { SimpleDistributedQueue } from '@zkwire/queues';
import { CuratorCache, InterProcessMutex } from '@zkwire/recipes';
import {
  callRecorder,
  eventually,
  findZooKeeper,
  startFaultProxy,
  startSecureZooKeeper,
  startZooKeeper,
  versionAtLeast,
  type ZooKeeperServer,
} from '@zkwire/testing';
import {
  acls,
  connect,
  isNoAuth,
  isNoNode,
  op,
  Perms,
  readOp,
  UnsupportedByServerError,
  type WatchEvent,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const release = findZooKeeper();
const VERSION = release.version;
const since = (version: string) => versionAtLeast(VERSION, version);

/** Servers with ZOOKEEPER-4026's fix answer a create2 inside a multi with its Stat. */
function createStatInMulti(version: string): boolean {
  if (versionAtLeast(version, '3.9.0')) return true;
  if (versionAtLeast(version, '3.8.0')) return versionAtLeast(version, '3.8.2');
  return versionAtLeast(version, '3.7.2');
}

let server: ZooKeeperServer;
const clients: ZooKeeperClient[] = [];

async function client(connectString = server.connectString): Promise<ZooKeeperClient> {
  const zk = await connect({ connectString, sessionTimeoutMs: 20_000 });
  clients.push(zk);
  return zk;
}

beforeAll(async () => {
  server = await startZooKeeper({
    version: VERSION,
    // TTL nodes need extended types; a short container check so that TTL and container nodes go quickly.
    jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true', '-Dznode.container.checkIntervalMs=200'],
  });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((zk) => zk.close()));
  await server?.[Symbol.asyncDispose]();
});

describe(`ZooKeeper ${VERSION} (${release.source})`, () => {
  it('connects, and learns the server version at its first gated call', async () => {
    const zk = await client();
    expect(zk.state).toBe('connected');
    expect(zk.serverVersion).toBeUndefined(); // asked (srvr) only when a call needs it
    await zk.whoAmI().catch(() => undefined); // gated (3.7.0): refused locally by older releases
    expect(zk.serverVersion).toBe(VERSION);
  });

  it('runs every operation the release has', async () => {
    const zk = await client();
    await zk.create('/ops', 'root');
    expect((await zk.create2('/ops/a', 'a')).path).toBe('/ops/a');
    const { data, stat } = await zk.getData('/ops/a');
    expect(data.toString()).toBe('a');
    expect((await zk.setData('/ops/a', 'b', { version: stat.version })).version).toBe(stat.version + 1);
    expect(await zk.exists('/ops/a')).not.toBeNull();
    expect(await zk.exists('/ops/missing')).toBeNull();
    expect(await zk.getChildren('/ops')).toEqual(['a']);
    expect((await zk.getChildren2('/ops')).stat.numChildren).toBe(1);
    const { acl, stat: aclStat } = await zk.getACL('/ops/a');
    expect(acl).toEqual(acls.open());
    await zk.setACL('/ops/a', acls.open(), { version: aclStat.aversion });
    await zk.sync('/ops');
    const results = await zk.multi([
      op.create('/ops/m', 'm'),
      op.setData('/ops/a', 'c'),
      op.check('/ops', 0),
    ]);
    expect(results).toHaveLength(3);
    // A create inside a multi goes out as create2; servers before the ZOOKEEPER-4026 fix answer a plain create,
    // so the result has no Stat there rather than an invented one.
    const created = results[0] as { type: 'create'; path: string; stat: { version: number } | null };
    expect(created.path).toBe('/ops/m');
    if (createStatInMulti(VERSION)) expect(created.stat).toMatchObject({ version: 0 });
    else expect(created.stat).toBeNull();
    await zk.delete('/ops/m');
    await zk.create('/ops/e', 'e', { mode: 'ephemeral' });

    if (since('3.6.0')) {
      const [read, listed] = await zk.multiRead([readOp.getData('/ops/a'), readOp.getChildren('/ops')]);
      expect(read).toMatchObject({ data: Buffer.from('c') });
      expect(listed).toMatchObject({ children: expect.arrayContaining(['a', 'e']) });
      expect(await zk.getAllChildrenNumber('/ops')).toBe(2);
      expect(await zk.getEphemerals('/ops')).toEqual(['/ops/e']);
    } else {
      await expect(zk.multiRead([readOp.getData('/ops/a')])).rejects.toBeInstanceOf(UnsupportedByServerError);
      await expect(zk.getAllChildrenNumber('/ops')).rejects.toBeInstanceOf(UnsupportedByServerError);
      await expect(zk.getEphemerals('/ops')).rejects.toBeInstanceOf(UnsupportedByServerError);
      await expect(zk.addWatch('/ops', 'persistent', () => {})).rejects.toBeInstanceOf(
        UnsupportedByServerError,
      );
    }
    if (since('3.7.0')) {
      expect(await zk.whoAmI()).toContainEqual({ authScheme: 'ip', user: '127.0.0.1' });
    } else {
      await expect(zk.whoAmI()).rejects.toMatchObject({
        code: 'UNSUPPORTEDBYSERVER',
        requiredVersion: '3.7.0',
      });
    }
    // The session lives on after the calls the server lacks: they were answered locally.
    expect((await zk.getData('/ops/a')).data.toString()).toBe('c');
    await zk.deleteRecursive('/ops');
  });

  it('fires one-shot data, exist and child watches, and removes a watch', async () => {
    const zk = await client();
    await zk.create('/w', 'x');
    const data = callRecorder<WatchEvent>();
    const child = callRecorder<WatchEvent>();
    const exist = callRecorder<WatchEvent>();
    await zk.getData('/w', { watch: data.listener });
    await zk.getChildren('/w', { watch: child.listener });
    await zk.exists('/w/later', { watch: exist.listener });
    await zk.setData('/w', 'y');
    await zk.create('/w/later');
    expect(await data.first).toMatchObject({ type: 'dataChanged', path: '/w' });
    expect(await child.first).toMatchObject({ type: 'childrenChanged', path: '/w' });
    expect(await exist.first).toMatchObject({ type: 'created', path: '/w/later' });

    const removed = callRecorder<WatchEvent>();
    await zk.getData('/w', { watch: removed.listener });
    await zk.removeWatches('/w', 'data', { watcher: removed.listener });
    expect(await removed.first).toMatchObject({ type: 'dataWatchRemoved', path: '/w' });
  });

  it(`${since('3.6.0') ? 'fires' : 'refuses, before sending,'} persistent and persistent recursive watches`, async () => {
    // Two paths: servers 3.6 to 3.8 keep one watch mode per path and connection (ZOOKEEPER-4466).
    const zk = await client();
    if (!since('3.6.0')) {
      for (const mode of ['persistent', 'persistent-recursive'] as const) {
        await expect(zk.addWatch('/', mode, () => {})).rejects.toMatchObject({
          code: 'UNSUPPORTEDBYSERVER',
          requiredVersion: '3.6.0',
        });
      }
      return;
    }
    await zk.create('/p', 'x');
    await zk.create('/q', 'x');
    const seen: string[] = [];
    const recursive: string[] = [];
    await zk.addWatch('/p', 'persistent', (e) => seen.push(`${e.type} ${e.path}`));
    await zk.addWatch('/q', 'persistent-recursive', (e) => recursive.push(`${e.type} ${e.path}`));
    for (const root of ['/p', '/q']) {
      await zk.setData(root, 'y');
      await zk.setData(root, 'z');
      await zk.create(`${root}/c`, 'c');
      await zk.setData(`${root}/c`, 'd');
    }
    await eventually(() => recursive.length >= 4, 'four recursive events');
    await eventually(() => seen.length >= 3, 'three persistent events');
    expect(seen).toEqual(['dataChanged /p', 'dataChanged /p', 'childrenChanged /p']);
    expect(recursive).toEqual(['dataChanged /q', 'dataChanged /q', 'created /q/c', 'dataChanged /q/c']);
  });

  it('restores watches after a reconnect (SetWatches, SetWatches2 from 3.6)', async () => {
    const proxy = await startFaultProxy(server);
    try {
      const zk = await client(proxy.connectString);
      const writer = await client();
      await writer.create('/r', 'x');
      const data = callRecorder<WatchEvent>();
      await zk.getData('/r', { watch: data.listener });
      const persistent: string[] = [];
      if (since('3.6.0')) await zk.addWatch('/r', 'persistent', (e) => persistent.push(e.type));
      const states: string[] = [];
      zk.on('state', (state) => states.push(state));
      proxy.cut();
      await eventually(() => states.includes('reconnected'), 'the session reconnects');
      await writer.setData('/r', 'y');
      expect(await data.first).toMatchObject({ type: 'dataChanged', path: '/r' });
      if (since('3.6.0'))
        await eventually(() => persistent.includes('dataChanged'), 'the persistent watch fires');
    } finally {
      await proxy.close();
    }
  });

  it('creates TTL and container nodes, which the server removes', async () => {
    const zk = await client();
    await zk.create('/ttl', 'x', { mode: 'persistent-ttl', ttlMs: 100 });
    await zk.create('/box', null, { mode: 'container' });
    await zk.create('/box/item', 'x');
    await zk.delete('/box/item');
    await eventually(async () => (await zk.exists('/ttl')) === null, 'the TTL node expires');
    await eventually(async () => (await zk.exists('/box')) === null, 'the empty container goes');
  });

  it('passes a mutex between two sessions and a queue item between producer and consumer', async () => {
    const [a, b] = [await client(), await client()];
    const first = new InterProcessMutex(a, '/matrix/lock');
    const second = new InterProcessMutex(b, '/matrix/lock');
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire({ timeoutMs: 200 })).toBe(false);
    const waiting = second.acquire();
    await first.release();
    expect(await waiting).toBe(true);
    await second.release();

    const producer = new SimpleDistributedQueue(a, '/matrix/queue');
    const consumer = new SimpleDistributedQueue(b, '/matrix/queue');
    await producer.offer(Buffer.from('job-1'));
    expect(Buffer.from((await consumer.take()) as Uint8Array).toString()).toBe('job-1');
  });

  it(`keeps a CuratorCache with the ${since('3.6.0') ? 'persistent-watch' : 'one-shot-watches'} engine`, async () => {
    const zk = await client();
    const writer = await client();
    await writer.create('/cached', 'v0');
    await writer.create('/cached/a', 'a0');
    const cache = new CuratorCache(zk, '/cached', { engine: 'auto' });
    try {
      const changed: string[] = [];
      cache.on('changed', (_old, node) =>
        changed.push(`${node.path}=${Buffer.from(node.data ?? []).toString()}`),
      );
      await cache.start();
      expect(await cache.awaitInitialized({ timeoutMs: 30_000 })).toBe(true);
      expect(cache.engine).toBe(since('3.6.0') ? 'persistent-watch' : 'one-shot-watches');
      await writer.setData('/cached/a', 'a1');
      await eventually(() => changed.includes('/cached/a=a1'), 'the cache sees the change');
    } finally {
      await cache.close();
    }
  });

  it('takes a declared serverVersion for the cache engine, without asking the server', async () => {
    const zk = await connect({ connectString: server.connectString, serverVersion: '3.5.10' });
    clients.push(zk);
    await zk.create('/declared', 'x');
    const cache = new CuratorCache(zk, '/declared', { engine: 'auto' });
    try {
      await cache.start();
      expect(await cache.awaitInitialized({ timeoutMs: 30_000 })).toBe(true);
      expect(cache.engine).toBe('one-shot-watches');
    } finally {
      await cache.close();
    }
  });

  it('authenticates with digest and enforces its ACL', async () => {
    const owner = await client();
    const stranger = await client();
    await owner.addAuth('digest', 'bob:secret');
    await owner.create('/digest', 'private', { acl: [acls.digest('bob', 'secret', Perms.ALL)] });
    expect((await owner.getData('/digest')).data.toString()).toBe('private');
    const refused = await stranger.getData('/digest').catch((error: unknown) => error);
    expect(isNoAuth(refused)).toBe(true);
    expect(isNoNode(refused)).toBe(false);
  });

  it('talks TLS to the secure port', async () => {
    const secure = await startSecureZooKeeper({ version: VERSION });
    try {
      const certs = secure.certificates!;
      const zk = await connect({
        connectString: secure.secureConnectString,
        sessionTimeoutMs: 20_000,
        tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
      });
      try {
        await zk.create('/tls', 'over tls');
        expect((await zk.getData('/tls')).data.toString()).toBe('over tls');
      } finally {
        await zk.close();
      }
    } finally {
      await secure.close();
    }
  });
});
