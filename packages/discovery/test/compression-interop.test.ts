/**
 * Compressed instance data next to real curator-x-discovery 5.9.0 on a Curator client built with
 * `enableCompression()` (Curator 5.8, CURATOR-725), on one real server, both ways: a Java instance is GZIP on
 * the server and found, payload included, by our discovery with `compression: 'gzip'` (queries and a cache);
 * ours, registered with it, is GZIP too and found by Java's queries and cache.
 */
import { gunzipSync } from 'node:zlib';
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance } from '../src/service-instance.js';
import { openClient } from './helpers.js';
import { type DiscoveryDriver, startDiscoveryDriver } from './java/discovery-driver.js';

const BASE = '/interop/compressed';

describe('compressed instances with curator-x-discovery 5.9.0 (enableCompression)', () => {
  let server: ZooKeeperServer;
  let java: DiscoveryDriver;
  let zk: ZooKeeperClient;

  beforeAll(async () => {
    server = await startZooKeeper();
    [java, zk] = await Promise.all([
      startDiscoveryDriver(server.connectString, BASE, 'standard', 'gzip'),
      openClient(server.connectString),
    ]);
  }, 120_000);

  afterAll(async () => {
    await java?.close();
    await zk?.close();
    await server?.stop();
  });

  it("finds a Java instance, stored as GZIP, with compression: 'gzip': queries and a cache", async () => {
    await java.call('register', 'billing', 'java-1', '10.1.0.1', 9001, 'map');
    const { data } = await zk.getData(`${BASE}/billing/java-1`);
    expect([...data.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(gunzipSync(data).toString('utf8'))).toMatchObject({ name: 'billing', id: 'java-1' });

    await using discovery = new ServiceDiscovery(zk, { basePath: BASE, compression: 'gzip' });
    await discovery.start();
    const found = await discovery.queryForInstances('billing');
    expect(found.map((i) => [i.id, i.address, i.port, i.payload])).toEqual([
      ['java-1', '10.1.0.1', 9001, { zone: 'eu-1' }],
    ]);
    expect((await discovery.queryForInstance('billing', 'java-1'))?.port).toBe(9001);
    const cache = discovery.serviceCache('billing');
    await cache.start();
    expect(cache.instances().map((i) => i.id)).toEqual(['java-1']);

    // Without the option the same node is no instance: reported and skipped, never misread.
    await using plain = new ServiceDiscovery(zk, { basePath: BASE });
    const errors: unknown[] = [];
    plain.on('error', (error) => errors.push(error));
    await plain.start();
    expect(await plain.queryForInstances('billing')).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ code: 'BAD_INSTANCE' })]);

    await java.call('unregister', 'billing', 'java-1');
    await eventually(() => cache.instances().length === 0);
  });

  it("registers ours as GZIP with compression: 'gzip', where Java's queries and cache find it", async () => {
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE, compression: 'gzip' });
    await discovery.start();
    await java.call('cache-start', 'search');
    const instance = createServiceInstance({
      name: 'search',
      id: 'node-1',
      address: '10.2.0.1',
      port: 7001,
      payload: { zone: 'eu-2' },
    });
    await discovery.registerService(instance);
    const { data: raw } = await zk.getData(`${BASE}/search/node-1`);
    expect(gunzipSync(raw).equals(Buffer.from(serializeInstance(instance)))).toBe(true);

    const seen = await java.json<{ id: string; port: number; payload: unknown }[]>('query-map', 'search');
    expect(seen.map((i) => [i.id, i.port, i.payload])).toEqual([['node-1', 7001, { zone: 'eu-2' }]]);
    await eventually(async () => (await java.call('cache-ids', 'search')) === 'node-1');
    await discovery.updateService({ ...instance, port: 7002 });
    await eventually(async () => {
      const now = await java.json<{ port: number }[]>('query-map', 'search');
      return now[0]?.port === 7002;
    });
    await discovery.unregisterService(instance);
    await eventually(async () => (await java.call('cache-ids', 'search')) === '');
  });
});
