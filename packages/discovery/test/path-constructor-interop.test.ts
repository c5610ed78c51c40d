/**
 * A custom discovery layout (curator-x-discovery 5.6's DiscoveryPathConstructor, CURATOR-457) next to real
 * Curator 5.9.0 with the same constructor, on one real server, both ways: the layout of Curator's own
 * testCustomPathConstructor, service names under the base path and instances under `<base>/<name>/instances`.
 * A Java instance is found by our queries and cache; ours by Java's queries and cache; each lands where the
 * layout says.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveryPathConstructor } from '../src/path-constructor.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance } from '../src/service-instance.js';
import { openClient } from './helpers.js';
import { type DiscoveryDriver, startDiscoveryDriver } from './java/discovery-driver.js';

const BASE = '/interop/custom-layout';

/** The constructor of Curator's testCustomPathConstructor, under BASE. */
const instancesChild: DiscoveryPathConstructor = {
  getBasePath: () => BASE,
  getPathForInstances: (serviceName) => `${BASE}/${serviceName}/instances`,
};

describe('a custom discovery path constructor with curator-x-discovery 5.9.0', () => {
  let server: ZooKeeperServer;
  let java: DiscoveryDriver;
  let zk: ZooKeeperClient;

  beforeAll(async () => {
    server = await startZooKeeper();
    [java, zk] = await Promise.all([
      startDiscoveryDriver(server.connectString, BASE, 'instances-child'),
      openClient(server.connectString),
    ]);
  }, 120_000);

  afterAll(async () => {
    await java?.close();
    await zk?.close();
    await server?.stop();
  });

  it('finds a Java instance registered under <base>/<name>/instances: queries and a cache', async () => {
    await java.call('register', 'billing', 'java-1', '10.1.0.1', 9001, 'map');
    expect(await zk.exists(`${BASE}/billing/instances/java-1`)).not.toBeNull();
    await using discovery = new ServiceDiscovery(zk, { pathConstructor: instancesChild });
    await discovery.start();
    expect(discovery.basePath).toBe(BASE);
    expect(discovery.pathForInstance('billing', 'x')).toBe(`${BASE}/billing/instances/x`);
    expect(await discovery.queryForNames()).toEqual(['billing']);
    const found = await discovery.queryForInstances('billing');
    expect(found.map((i) => [i.id, i.address, i.port, i.payload])).toEqual([
      ['java-1', '10.1.0.1', 9001, { zone: 'eu-1' }],
    ]);
    expect((await discovery.queryForInstance('billing', 'java-1'))?.port).toBe(9001);
    const cache = discovery.serviceCache('billing');
    await cache.start();
    expect(cache.instances().map((i) => i.id)).toEqual(['java-1']);
    await java.call('unregister', 'billing', 'java-1');
    await eventually(() => cache.instances().length === 0);
  });

  it("registers ours under <base>/<name>/instances, where Java's queries and cache find it", async () => {
    await using discovery = new ServiceDiscovery(zk, { pathConstructor: instancesChild });
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
    expect((await zk.exists(`${BASE}/search/instances/node-1`))?.ephemeralOwner).toBe(zk.sessionId);
    expect(await zk.getChildren(`${BASE}/search`)).toEqual(['instances']);

    const names = await java.json<{ names: string[] }>('names');
    expect(names.names.sort()).toEqual(['billing', 'search']);
    const seen = await java.json<{ id: string; port: number; payload: unknown }[]>('query-map', 'search');
    expect(seen.map((i) => [i.id, i.port, i.payload])).toEqual([['node-1', 7001, { zone: 'eu-2' }]]);
    await eventually(async () => (await java.call('cache-ids', 'search')) === 'node-1');
    await discovery.unregisterService(instance);
    await eventually(async () => (await java.call('cache-ids', 'search')) === '');
  });
});
