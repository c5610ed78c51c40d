/**
 * Compressed instance data next to real curator-x-discovery 5.9.0 on a Curator client built with
 * `enableCompression()` (Curator 5.8, CURATOR-725), on one real server, both ways: a Java instance is GZIP on
 * the server and found, payload included, by our discovery with `compression: 'gzip'` (queries and a cache);
 * ours, registered with it, is GZIP too and found by Java's queries and cache.
 */
import { gunzipSync } from 'node:zlib';
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { expectJavaBillingFound, expectJavaSeesOurs, javaInterop, oursForJava } from './java-interop.js';

const BASE = '/interop/compressed';

describe('compressed instances with curator-x-discovery 5.9.0 (enableCompression)', () => {
  const interop = javaInterop(BASE, 'standard', 'gzip');

  it("finds a Java instance, stored as GZIP, with compression: 'gzip': queries and a cache", async () => {
    const { java, zk } = interop;
    await java.call('register', 'billing', 'java-1', '10.1.0.1', 9001, 'map');
    const { data } = await zk.getData(`${BASE}/billing/java-1`);
    expect([...data.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(gunzipSync(data).toString('utf8'))).toMatchObject({ name: 'billing', id: 'java-1' });

    await using discovery = new ServiceDiscovery(zk, { basePath: BASE, compression: 'gzip' });
    await discovery.start();
    const cache = await expectJavaBillingFound(discovery);

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
    const { java, zk } = interop;
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE, compression: 'gzip' });
    await discovery.start();
    await java.call('cache-start', 'search');
    const instance = oursForJava();
    await discovery.registerService(instance);
    const { data: raw } = await zk.getData(`${BASE}/search/node-1`);
    expect(gunzipSync(raw).equals(Buffer.from(serializeInstance(instance)))).toBe(true);

    await expectJavaSeesOurs(java);
    await discovery.updateService({ ...instance, port: 7002 });
    await eventually(async () => {
      const now = await java.json<{ port: number }[]>('query-map', 'search');
      return now[0]?.port === 7002;
    });
    await discovery.unregisterService(instance);
    await eventually(async () => (await java.call('cache-ids', 'search')) === '');
  });
});
