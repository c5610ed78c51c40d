/**
 * Compressed data next to real Curator 5.9.0 (a Java driver with a CuratorFramework built with
 * `enableCompression()`, CURATOR-725) on one real server, both ways: what Curator writes compressed (plain
 * creates, a PersistentNode) our caches read with `compression: 'gzip'`; what our PersistentNode and
 * PersistentTtlNode write with it, Curator's compressing client and its CuratorCache (COMPRESSED_DATA) read;
 * a SharedCount and a GroupMember with it share their node and group with Curator's on a compressing client,
 * and LeaderLatches on both sides read each other's ids.
 */

import { gunzipSync } from 'node:zlib';
import { eventually } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { NodeCache } from '../src/cache/node-cache.js';
import { PathChildrenCache } from '../src/cache/path-children-cache.js';
import { localAddressData } from '../src/internal-common/default-data.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { GroupMember } from '../src/nodes/group-member.js';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import { PersistentTtlNode } from '../src/nodes/persistent-ttl-node.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { useRealServer } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

const real = useRealServer({
  clients: 2,
  server: { jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true'] },
});
let java: JavaDriver;

beforeAll(async () => {
  java = await startJavaDriver({
    connectString: real.server.connectString,
    handlers: ['drivers-caches/CompressionHandler.java'],
  });
}, 120_000);
afterAll(() => java?.close());

const text = (data: Uint8Array | null | undefined) =>
  data === null || data === undefined ? data : Buffer.from(data).toString('utf8');
const GZIP_MAGIC = '1f8b08';

describe('compressed data with Curator 5.9.0', () => {
  it("Curator's compressed writes are GZIP; our caches with compression: 'gzip' read them, and their changes", async () => {
    const root = '/compression/from-java';
    await java.call('j', 'write', `${root}/a`, 'alpha');
    await java.call('j', 'write', `${root}/b/c`, 'gamma'); // makes `${root}` and `${root}/b` with no data
    await java.call('j', 'pnode.start', 'p', `${root}/p`, 'persistent');
    expect(await java.call('j', 'raw', `${root}/a`)).toMatch(new RegExp(`^${GZIP_MAGIC}`));
    expect(gunzipSync(Buffer.from(await java.call('j', 'raw', `${root}/b/c`), 'hex')).toString('utf8')).toBe(
      'gamma',
    );

    await using cache = new CuratorCache(real.client(0), root, { compression: 'gzip' });
    const errors: unknown[] = [];
    cache.on('error', (error) => errors.push(error));
    await using node = new NodeCache(real.client(0), `${root}/a`, { compression: 'gzip' });
    await using children = new PathChildrenCache(real.client(0), root, { compression: 'gzip' });
    await Promise.all([cache.start(), node.start(), children.start()]);
    await cache.awaitInitialized({ timeoutMs: 15_000 });
    await node.awaitInitialized({ timeoutMs: 15_000 });
    await children.awaitInitialized({ timeoutMs: 15_000 });

    expect(text(cache.get(`${root}/a`)?.data)).toBe('alpha');
    expect(text(cache.get(`${root}/b/c`)?.data)).toBe('gamma');
    expect(text(cache.get(`${root}/p`)?.data)).toBe('persistent');
    expect(text(cache.get(`${root}/b`)?.data)).toBe(''); // a parent Curator made: no data, not compressed
    expect(text(node.currentData?.data)).toBe('alpha');
    expect(children.currentData.map((child) => [child.path, text(child.data)])).toEqual([
      [`${root}/a`, 'alpha'],
      [`${root}/b`, ''],
      [`${root}/p`, 'persistent'],
    ]);

    await java.call('j', 'write', `${root}/a`, 'alpha-2');
    await java.call('j', 'pnode.setdata', 'p', 'persistent-2');
    await eventually(() => text(cache.get(`${root}/a`)?.data) === 'alpha-2');
    await eventually(() => text(cache.get(`${root}/p`)?.data) === 'persistent-2');
    await eventually(() => text(node.currentData?.data) === 'alpha-2');
    expect(errors).toEqual([]);
    await java.call('j', 'pnode.close', 'p');
  });

  it("what our PersistentNode and PersistentTtlNode write with compression: 'gzip', Curator's compressing client and cache read", async () => {
    const root = '/compression/from-node';
    // Curator's compressed cache stops at a node whose data is zero-length (its decompression fails, so the
    // node's children are never listed), and the parents a create makes have none, in Curator as here: the
    // root gets compressed (empty) data, as a Curator service using the cache would need too.
    await java.call('j', 'write', root);
    expect(await java.call('j', 'raw', root)).toMatch(new RegExp(`^${GZIP_MAGIC}`));
    await using node = new PersistentNode(real.client(1), `${root}/p`, {
      mode: 'persistent',
      data: 'ours',
      compression: 'gzip',
    });
    await using ttl = new PersistentTtlNode(real.client(1), `${root}/ttl`, {
      ttlMs: 1_000,
      data: 'ttl-data',
      compression: 'gzip',
    });
    node.start();
    ttl.start();
    expect(await node.waitForInitialCreate({ timeoutMs: 15_000 })).toBe(true);
    expect(await ttl.waitForInitialCreate({ timeoutMs: 15_000 })).toBe(true);
    expect(text(node.getData())).toBe('ours'); // the object keeps the data uncompressed

    expect(await java.call('j', 'raw', `${root}/p`)).toMatch(new RegExp(`^${GZIP_MAGIC}`));
    expect(await java.call('j', 'read', `${root}/p`)).toBe('ours');
    expect(await java.call('j', 'read', `${root}/ttl`)).toBe('ttl-data');
    await eventually(async () => (await real.client(0).exists(`${root}/ttl/touch`)) !== null);
    expect(await java.call('j', 'read', `${root}/ttl/touch`)).toBe(text(await localAddressData()));

    await java.call('j', 'cache.start', 'c', root);
    expect(await java.call('j', 'cache.data', 'c', `${root}/p`)).toBe('ours');
    expect(await java.call('j', 'cache.data', 'c', `${root}/ttl`)).toBe('ttl-data');
    await node.setData('ours-2');
    await eventually(async () => (await java.call('j', 'cache.data', 'c', `${root}/p`)) === 'ours-2');
    expect(await java.call('j', 'read', `${root}/p`)).toBe('ours-2');
    await java.call('j', 'cache.close', 'c');
  });

  it("a SharedCount and a GroupMember with compression: 'gzip' count and meet with Curator's on a compressing client", async () => {
    const root = '/compression/shared';
    await java.call('j', 'write', root); // Curator's group cache needs a compressed root (see above)
    await java.call('j', 'count.start', 'count', `${root}/count`, 5);
    await using count = new SharedCount(real.client(0), `${root}/count`, 0, { compression: 'gzip' });
    await count.start();
    expect(count.count).toBe(5);
    expect((await real.client(1).getData(`${root}/count`)).data.length).toBeGreaterThan(4); // GZIP, not 4 bytes
    expect(await count.trySetCount(count.versionedValue, 6)).toBe(true);
    await eventually(async () => (await java.call('j', 'count.get', 'count')) === '6');
    await java.call('j', 'count.set', 'count', 7);
    await eventually(() => count.count === 7);

    await java.call('j', 'group.join', 'g', `${root}/group`, 'java', 'jpayload');
    await using member = new GroupMember(real.client(0), `${root}/group`, 'node', {
      payload: 'npayload',
      compression: 'gzip',
    });
    await member.start();
    expect(await member.awaitJoined({ timeoutMs: 15_000 })).toBe(true);
    await eventually(() => member.currentMembers().size === 2);
    expect([...member.currentMembers()].map(([id, payload]) => `${id}=${text(payload)}`).sort()).toEqual([
      'java=jpayload',
      'node=npayload',
    ]);
    await eventually(
      async () => (await java.call('j', 'group.members', 'g')) === 'java=jpayload,node=npayload',
    );
    await member.setThisData('npayload-2');
    await eventually(
      async () => (await java.call('j', 'group.members', 'g')) === 'java=jpayload,node=npayload-2',
    );
    await java.call('j', 'group.close', 'g');
    await java.call('j', 'count.close', 'count');
  });

  it("LeaderLatches with compression: 'gzip' on both sides read each other's ids", async () => {
    const path = '/compression/latch';
    await java.call('j', 'latch.start', 'l', path, 'java-id');
    await using latch = new LeaderLatch(real.client(0), path, { id: 'node-id', compression: 'gzip' });
    await latch.start();
    expect(await latch.getParticipants()).toEqual([
      { id: 'java-id', isLeader: true },
      { id: 'node-id', isLeader: false },
    ]);
    expect(await java.call('j', 'latch.participants', 'l')).toBe('java-id*,node-id');
    await java.call('j', 'latch.close', 'l');
    expect(await latch.await({ timeoutMs: 15_000 })).toBe(true);
    expect(await java.call('j', 'read', latch.ourPath as string)).toBe('node-id');
  });
});
