/**
 * A custom discovery layout (curator-x-discovery 5.6's DiscoveryPathConstructor, CURATOR-457) next to real
 * Curator 5.9.0 with the same constructor, on one real server, both ways: the layout of Curator's own
 * testCustomPathConstructor, service names under the base path and instances under `<base>/<name>/instances`.
 * A Java instance is found by our queries and cache; ours by Java's queries and cache; each lands where the
 * layout says.
 */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import type { DiscoveryPathConstructor } from '../src/path-constructor.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { expectJavaBillingFound, expectJavaSeesOurs, javaInterop, oursForJava } from './java-interop.js';

const BASE = '/interop/custom-layout';

/** The constructor of Curator's testCustomPathConstructor, under BASE. */
const instancesChild: DiscoveryPathConstructor = {
  getBasePath: () => BASE,
  getPathForInstances: (serviceName) => `${BASE}/${serviceName}/instances`,
};

describe('a custom discovery path constructor with curator-x-discovery 5.9.0', () => {
  const interop = javaInterop(BASE, 'instances-child');

  it('finds a Java instance registered under <base>/<name>/instances: queries and a cache', async () => {
    const { java, zk } = interop;
    await java.call('register', 'billing', 'java-1', '10.1.0.1', 9001, 'map');
    expect(await zk.exists(`${BASE}/billing/instances/java-1`)).not.toBeNull();
    await using discovery = new ServiceDiscovery(zk, { pathConstructor: instancesChild });
    await discovery.start();
    expect(discovery.basePath).toBe(BASE);
    expect(discovery.pathForInstance('billing', 'x')).toBe(`${BASE}/billing/instances/x`);
    expect(await discovery.queryForNames()).toEqual(['billing']);
    const cache = await expectJavaBillingFound(discovery);
    await java.call('unregister', 'billing', 'java-1');
    await eventually(() => cache.instances().length === 0);
  });

  it("registers ours under <base>/<name>/instances, where Java's queries and cache find it", async () => {
    const { java, zk } = interop;
    await using discovery = new ServiceDiscovery(zk, { pathConstructor: instancesChild });
    await discovery.start();
    await java.call('cache-start', 'search');
    const instance = oursForJava();
    await discovery.registerService(instance);
    expect((await zk.exists(`${BASE}/search/instances/node-1`))?.ephemeralOwner).toBe(zk.sessionId);
    expect(await zk.getChildren(`${BASE}/search`)).toEqual(['instances']);

    const names = await java.json<{ names: string[] }>('names');
    expect(names.names.sort()).toEqual(['billing', 'search']);
    await expectJavaSeesOurs(java);
    await discovery.unregisterService(instance);
    await eventually(async () => (await java.call('cache-ids', 'search')) === '');
  });
});
