/**
 * Service nodes are containers, as Curator makes them: on a server that reaps containers every 200 ms, a
 * service node goes once its last instance is gone. A cache on that service keeps working across it: it
 * watches for the node's return and lists the instances registered after it.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance } from '../src/service-instance.js';
import { openClient } from './helpers.js';

const BASE = '/reaped/services';
let server: ZooKeeperServer;
const clients: ZooKeeperClient[] = [];

beforeAll(async () => {
  server = await startZooKeeper({ jvmFlags: ['-Dznode.container.checkIntervalMs=200'] });
  clients.push(await openClient(server.connectString), await openClient(server.connectString));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await server?.stop();
});

it('the service node is a container: reaped when empty; a cache follows it going and coming back', async () => {
  const [registering, caching] = clients as [ZooKeeperClient, ZooKeeperClient];
  await using writer = new ServiceDiscovery(registering, { basePath: BASE });
  await using watcher = new ServiceDiscovery(caching, { basePath: BASE });
  await writer.start();
  await watcher.start();
  const instance = (id: string) => createServiceInstance({ name: 'svc', id, address: 'h', port: 1 });
  await writer.registerService(instance('first'));
  const cache = watcher.serviceCache('svc');
  await cache.start();
  expect(cache.instances().map((i) => i.id)).toEqual(['first']);

  await writer.unregisterService('first');
  await eventually(async () => (await registering.exists(`${BASE}/svc`)) === null);
  expect(cache.instances()).toEqual([]);

  await writer.registerService(instance('second')); // makes the service node again
  await eventually(() => cache.instances().length === 1);
  expect(cache.instances().map((i) => i.id)).toEqual(['second']);
});
