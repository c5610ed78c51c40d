/**
 * What the interop tests against real curator-x-discovery share: a server, a Java driver and a client of
 * ours per describe block, and the two exchanges each layout or encoding is checked with (Java's instance
 * found by ours, ours found by Java).
 */
import { eventually, serverFixture } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ServiceCache } from '../src/service-cache.js';
import type { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance, type ServiceInstance } from '../src/service-instance.js';
import { openClient, started } from './helpers.js';
import {
  type DiscoveryDriver,
  type DriverCompression,
  type DriverLayout,
  startDiscoveryDriver,
} from './java/discovery-driver.js';

/** A server, a Java driver on it and a client of ours, for the tests of one describe block. */
export interface JavaInterop {
  readonly java: DiscoveryDriver;
  readonly zk: ZooKeeperClient;
}

/**
 * Starts a real server, a driver on `basePath` (with `layout` and `compression`) and a client of ours before
 * the tests of the enclosing block, and stops them after.
 */
export function javaInterop(
  basePath: string,
  layout?: DriverLayout,
  compression?: DriverCompression,
): JavaInterop {
  const fixture = serverFixture();
  let java: DiscoveryDriver | undefined;
  let zk: ZooKeeperClient | undefined;
  beforeAll(async () => {
    await fixture.start();
    const connectString = fixture.server.connectString;
    [java, zk] = await Promise.all([
      startDiscoveryDriver(connectString, basePath, layout, compression).then(fixture.track),
      openClient(connectString).then(fixture.track),
    ]);
  }, 120_000);
  afterAll(fixture.stop);
  return {
    get java() {
      return started(java);
    },
    get zk() {
      return started(zk);
    },
  };
}

/**
 * Expects `discovery`'s queries and a cache of it to find the instance the driver registered with
 * `register billing java-1 10.1.0.1 9001 map`; returns the cache.
 */
export async function expectJavaBillingFound(discovery: ServiceDiscovery): Promise<ServiceCache> {
  const found = await discovery.queryForInstances('billing');
  expect(found.map((i) => [i.id, i.address, i.port, i.payload])).toEqual([
    ['java-1', '10.1.0.1', 9001, { zone: 'eu-1' }],
  ]);
  expect((await discovery.queryForInstance('billing', 'java-1'))?.port).toBe(9001);
  const cache = discovery.serviceCache('billing');
  await cache.start();
  expect(cache.instances().map((i) => i.id)).toEqual(['java-1']);
  return cache;
}

/** Our `search` instance `node-1` at 10.2.0.1:7001, as Java's queries expect it. */
export const oursForJava = (): ServiceInstance =>
  createServiceInstance({
    name: 'search',
    id: 'node-1',
    address: '10.2.0.1',
    port: 7001,
    payload: { zone: 'eu-2' },
  });

/** Expects the driver's queries, and its cache (started with `cache-start search`), to see {@link oursForJava}. */
export async function expectJavaSeesOurs(java: DiscoveryDriver): Promise<void> {
  const seen = await java.json<{ id: string; port: number; payload: unknown }[]>('query-map', 'search');
  expect(seen.map((i) => [i.id, i.port, i.payload])).toEqual([['node-1', 7001, { zone: 'eu-2' }]]);
  await eventually(async () => (await java.call('cache-ids', 'search')) === 'node-1');
}
