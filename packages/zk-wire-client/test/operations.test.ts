import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENSURE_PATH_WALKS, ensurePath, type TreeClient } from '../src/client/tree-helpers.js';
import {
  acls,
  connect,
  InvalidArgumentError,
  isNoNode,
  NoChildrenForEphemeralsError,
  NodeExistsError,
  NoNodeError,
  op,
  Perms,
  type WatchEvent,
  type ZooKeeperClient,
} from '../src/index.js';

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

beforeAll(async () => {
  // The container/TTL reaper runs every 100 ms instead of every minute.
  server = await startZooKeeper({
    jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true', '-Dznode.container.checkIntervalMs=100'],
  });
  zk = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
});

/** Resolves with the deleted event of a node that exists now. */
function deletion(path: string): Promise<WatchEvent> {
  return new Promise((resolve, reject) => {
    zk.exists(path, { watch: resolve }).then(
      (stat) => stat ?? reject(new Error(`${path} is already gone`)),
      reject,
    );
  });
}

describe('create modes', () => {
  it('sequential nodes get a 10-digit suffix; create2 returns the Stat', async () => {
    await zk.create('/seq');
    const a = await zk.create('/seq/item-', 'x', { mode: 'persistent-sequential' });
    const b = await zk.create2('/seq/item-', 'y', { mode: 'persistent-sequential' });
    expect(a).toMatch(/^\/seq\/item-\d{10}$/);
    expect(b.path > a).toBe(true);
    expect(b.stat.dataLength).toBe(1);
    expect(b.stat.ephemeralOwner).toBe(0n);
    // A sequential create may end with "/".
    expect(await zk.create('/seq/', null, { mode: 'persistent-sequential' })).toMatch(/^\/seq\/\d{10}$/);
  });

  it('ephemeral nodes belong to the session and go with it', async () => {
    const owner = await connect({ connectString: server.connectString });
    const path = await owner.create('/eph-', null, { mode: 'ephemeral-sequential' });
    expect((await zk.exists(path))?.ephemeralOwner).toBe(owner.sessionId);
    expect(await owner.getEphemerals()).toEqual([path]);
    expect(await owner.getEphemerals('/nothing-here')).toEqual([]);
    await owner.close();
    expect(await zk.exists(path)).toBeNull();
  });

  it('containers go once their last child goes; TTL nodes go when their TTL passes', async () => {
    // The server shows 0 as the ephemeralOwner of containers and TTL nodes (DataNode.getClientEphemeralOwner).
    const container = await zk.create2('/box', null, { mode: 'container' });
    expect(container.stat.ephemeralOwner).toBe(0n);
    await zk.create('/box/item');
    // Long enough to set the watch below before the reaper (every 100 ms) may take it.
    const ttl = await zk.create2('/ttl', 'x', { mode: 'persistent-ttl', ttlMs: 2000 });
    expect(ttl.stat.ephemeralOwner).toBe(0n);
    expect(await zk.create('/ttl-', null, { mode: 'persistent-sequential-ttl', ttlMs: 1n })).toMatch(
      /^\/ttl-\d{10}$/,
    );
    const persistent = await zk.create('/kept');
    const boxGone = deletion('/box');
    const ttlGone = deletion('/ttl');
    await zk.delete('/box/item');
    expect(await boxGone).toMatchObject({ type: 'deleted', path: '/box' });
    expect(await ttlGone).toMatchObject({ type: 'deleted', path: '/ttl' });
    expect(await zk.exists(persistent)).not.toBeNull();
  });

  it('refuses children under an ephemeral node, and keeps non-ASCII paths and data intact', async () => {
    const eph = await zk.create('/eph-parent', null, { mode: 'ephemeral' });
    await expect(zk.create(`${eph}/child`)).rejects.toBeInstanceOf(NoChildrenForEphemeralsError);
    const path = await zk.create('/ünï-日本-ẞ', 'données ✓');
    expect(path).toBe('/ünï-日本-ẞ');
    expect(await zk.getChildren('/')).toContain('ünï-日本-ẞ');
    expect((await zk.getData(path)).data.toString('utf8')).toBe('données ✓');
  });

  it('refuses a TTL mode without a TTL, and a TTL without a TTL mode', async () => {
    await expect(zk.create('/t1', null, { mode: 'persistent-ttl' })).rejects.toMatchObject({
      argument: 'ttlMs',
    });
    await expect(zk.create('/t2', null, { ttlMs: 5 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(zk.create('/t3', null, { mode: 'bogus' as never })).rejects.toMatchObject({
      argument: 'mode',
    });
  });

  it("gives missing parents an open ACL, not the node's own, unless parentAcl is given", async () => {
    // A read-only ACL on the node: were the parents given it too, creating the node under them would fail.
    expect(await zk.create('/ro/a/leaf', 'x', { acl: acls.readOnly(), createParents: true })).toBe(
      '/ro/a/leaf',
    );
    expect((await zk.getACL('/ro')).acl).toEqual(acls.open());
    expect((await zk.getACL('/ro/a')).acl).toEqual(acls.open());
    expect((await zk.getACL('/ro/a/leaf')).acl).toEqual(acls.readOnly());
    const parentAcl = [{ perms: Perms.ALL & ~Perms.DELETE, id: { scheme: 'world', id: 'anyone' } }];
    await zk.create('/pa/b/leaf', null, { acl: acls.readOnly(), createParents: true, parentAcl });
    expect((await zk.getACL('/pa')).acl).toEqual(parentAcl);
    expect((await zk.getACL('/pa/b')).acl).toEqual(parentAcl);
    expect((await zk.getACL('/pa/b/leaf')).acl).toEqual(acls.readOnly());
    // A bad parentAcl is refused before anything is sent: nothing was created.
    await expect(zk.create('/bad/leaf', null, { createParents: true, parentAcl: [] })).rejects.toMatchObject({
      argument: 'parentAcl',
    });
    expect(await zk.exists('/bad')).toBeNull();
  });

  it('creates missing parents as persistent nodes or containers', async () => {
    expect(await zk.create('/deep/er/leaf', 'x', { createParents: true })).toBe('/deep/er/leaf');
    expect(await zk.getChildren('/deep')).toEqual(['er']);
    await zk.create('/cdeep/er/leaf', 'x', { createParents: 'container' });
    const gone = deletion('/cdeep/er');
    await zk.delete('/cdeep/er/leaf');
    expect(await gone).toMatchObject({ type: 'deleted', path: '/cdeep/er' });
    await zk.delete('/deep/er/leaf');
    await zk.sync('/');
    expect(await zk.exists('/deep/er')).not.toBeNull();
    await expect(zk.create('/nodeep/leaf')).rejects.toBeInstanceOf(NoNodeError);
  });

  it('ensurePath walks the path again when a node it saw is deleted before its child is made', async () => {
    await zk.create('/walk/a', null, { createParents: true });
    const creates: string[] = [];
    let deletions = 1;
    const deletingParent: TreeClient = {
      exists: (path, options) => zk.exists(path, options),
      getChildren: (path, options) => zk.getChildren(path, options),
      delete: (path, options) => zk.delete(path, options),
      create: async (path, data, options) => {
        creates.push(path);
        // As the server reaping a container: the parent, seen a moment ago, is gone when the child is made.
        if (path === '/walk/a/b' && deletions-- > 0) await zk.delete('/walk/a');
        return zk.create(path, data, options);
      },
    };
    await ensurePath(deletingParent, '/walk/a/b/c', 'persistent', undefined);
    expect(creates).toEqual(['/walk/a/b', '/walk/a', '/walk/a/b', '/walk/a/b/c']);
    expect(await zk.exists('/walk/a/b/c')).not.toBeNull();

    // A parent that vanishes on every walk: the NoNode stands after the last walk, nothing loops.
    creates.length = 0;
    await zk.delete('/walk/a/b/c');
    await zk.delete('/walk/a/b');
    deletions = Number.POSITIVE_INFINITY;
    await expect(ensurePath(deletingParent, '/walk/a/b/c', 'persistent', undefined)).rejects.toBeInstanceOf(
      NoNodeError,
    );
    expect(creates.filter((path) => path === '/walk/a/b')).toHaveLength(ENSURE_PATH_WALKS);
  });

  it('createParents makes the parents again when they vanish before the create, a bounded number of times', async () => {
    await using client = await connect({ connectString: server.connectString });
    const ensure = client.ensurePath.bind(client);
    let rounds = 0;
    let deleteAfterRounds = 1;
    client.ensurePath = async (path, mode, options) => {
      await ensure(path, mode, options);
      rounds += 1;
      // Another client (or the container reaper) removes the parent between its making and the create.
      if (rounds <= deleteAfterRounds) await zk.delete(path);
    };
    expect(await client.create('/vanish/p', 'x', { createParents: true })).toBe('/vanish/p');
    expect(rounds).toBe(2);
    expect(new TextDecoder().decode((await zk.getData('/vanish/p')).data)).toBe('x');

    rounds = 0;
    deleteAfterRounds = Number.POSITIVE_INFINITY;
    await expect(client.create('/gone/p', 'x', { createParents: 'container' })).rejects.toBeInstanceOf(
      NoNodeError,
    );
    expect(rounds).toBe(3);
    expect(await zk.exists('/gone')).toBeNull();
  });
});

describe('ACLs, counts, sync, whoAmI', () => {
  it('reads and writes ACLs with versions', async () => {
    await zk.create('/acl', 'x', {
      acl: acls.readOnly().concat([{ perms: Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }]),
    });
    const { acl, stat } = await zk.getACL('/acl');
    expect(acl).toEqual([
      { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } },
      { perms: Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } },
    ]);
    expect(stat.aversion).toBe(0);
    await expect(zk.setData('/acl', 'y')).rejects.toMatchObject({ code: 'NOAUTH' });
    await expect(zk.setACL('/acl', acls.open(), { version: 5 })).rejects.toMatchObject({
      code: 'BADVERSION',
    });
    expect((await zk.setACL('/acl', acls.open(), { version: 0 })).aversion).toBe(1);
    await zk.setData('/acl', 'y');
    await expect(zk.setACL('/acl', [])).rejects.toMatchObject({ argument: 'acl' });
  });

  it('counts all descendants', async () => {
    await zk.create('/count/a/b', null, { createParents: true });
    await zk.create('/count/c');
    expect(await zk.getAllChildrenNumber('/count')).toBe(3);
    expect(zk.serverVersion).toBe(server.version); // learnt at the first gated call
    await expect(zk.getAllChildrenNumber('/count-missing')).rejects.toSatisfy(isNoNode);
  });

  it('reads the ensemble config and refuses a reconfig the server has not enabled', async () => {
    const { data, stat } = await zk.getConfig();
    expect(Buffer.isBuffer(data)).toBe(true);
    expect(typeof stat.mzxid).toBe('bigint');
    await expect(zk.reconfig({ leaving: ['3'] })).rejects.toMatchObject({
      code: 'RECONFIGDISABLED',
      errno: -123,
    });
    await expect(zk.reconfig({ members: 'a', joining: 'b' })).rejects.toMatchObject({ argument: 'members' });
    expect(await zk.exists('/')).not.toBeNull();
  });

  it('syncs and reports identities', async () => {
    await zk.sync('/');
    expect(await zk.whoAmI()).toEqual([{ authScheme: 'ip', user: '127.0.0.1' }]);
  });
});

describe('large pipelined writes', () => {
  it('go out whole and in order through the socket backpressure', async () => {
    await zk.create('/big');
    const blobs = Array.from({ length: 24 }, (_, i) => Buffer.alloc(900_000, i));
    const stats = await Promise.all(blobs.map((blob, i) => zk.create(`/big/n${i}`, blob)));
    expect(stats).toHaveLength(24);
    const read = await Promise.all(blobs.map((_, i) => zk.getData(`/big/n${i}`)));
    for (const [i, { data }] of read.entries()) expect(data.equals(blobs[i]!)).toBe(true);
    await zk.deleteRecursive('/big');
  });

  it('sends kilobyte frames made in one tick each with its own bytes (they share the codec slabs)', async () => {
    await zk.create('/slab');
    // Frames of 1-16 KiB are cut from shared 64 KiB slabs: the 80 setData and multi frames here span several.
    const sizes = Array.from({ length: 40 }, (_, i) => 1024 + i * 397);
    const blobs = sizes.map((size, i) => Buffer.alloc(size, i + 1));
    await Promise.all(blobs.map((_, i) => zk.create(`/slab/n${i}`)));
    await Promise.all([
      ...blobs.map((blob, i) => zk.setData(`/slab/n${i}`, blob)),
      ...blobs.map((blob, i) => zk.multi([op.setData(`/slab/n${i}`, blob), op.check(`/slab/n${i}`, 2)])),
    ]);
    const read = await Promise.all(blobs.map((_, i) => zk.getData(`/slab/n${i}`)));
    for (const [i, { data, stat }] of read.entries()) {
      expect(data.equals(blobs[i]!)).toBe(true);
      expect(stat.version).toBe(2);
    }
    await zk.deleteRecursive('/slab');
  });

  it('refuses a request larger than the server accepts before sending it', async () => {
    await zk.create('/huge', 'x');
    const half = Buffer.alloc(600_000);
    await expect(zk.multi([op.setData('/huge', half), op.setData('/huge', half)])).rejects.toMatchObject({
      code: 'BADARGUMENTS',
      argument: 'request',
      operation: 'multi',
    });
    const session = zk.sessionId;
    expect((await zk.getData('/huge')).data.toString()).toBe('x');
    expect(zk.sessionId).toBe(session);
  });
});

describe('abort and timeouts', () => {
  it('rejects at once with an already-aborted signal and sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(zk.create('/aborted', null, { signal: controller.signal })).rejects.toThrow('stop');
    expect(await zk.exists('/aborted')).toBeNull();
  });

  it('drops a call aborted before it is written', async () => {
    const controller = new AbortController();
    const call = zk.create('/aborted2', null, { signal: controller.signal });
    controller.abort(new Error('changed my mind'));
    await expect(call).rejects.toThrow('changed my mind');
    expect(await zk.exists('/aborted2')).toBeNull();
  });

  it('discards the result of a call aborted after it was written, and the client carries on', async () => {
    const controller = new AbortController();
    const call = zk.create('/aborted3', null, { signal: controller.signal });
    await Promise.resolve();
    await Promise.resolve();
    controller.abort(new Error('late'));
    await expect(call).rejects.toThrow('late');
    // It was on the wire, so the server applied it; the next create proves the FIFO stayed in step.
    await expect(zk.create('/aborted3')).rejects.toBeInstanceOf(NodeExistsError);
  });
});
