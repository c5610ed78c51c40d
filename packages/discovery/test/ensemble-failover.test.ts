/**
 * A real 3-server ensemble whose leader is killed under a registration and a cache: every connection drops
 * during the re-election but the sessions survive, so the registered node stays as it was (same czxid, no
 * delete and create), and the cache ends equal to a fresh read, with what changed around the failover.
 */
import { ensembleFixture, eventually } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance } from '../src/service-instance.js';
import { openClient } from './helpers.js';

const BASE = '/failover/services';
const fixture = ensembleFixture({ size: 3 });

beforeAll(fixture.start, 120_000);
afterAll(fixture.stop);

async function client(): Promise<ZooKeeperClient> {
  const c = await openClient(fixture.ensemble.connectString);
  fixture.track(c);
  return c;
}

const instance = (id: string) => createServiceInstance({ name: 'svc', id, address: '127.0.0.1', port: 7000 });

describe('discovery across a leader failover', () => {
  it('keeps the registration (same node, same session) and the cache converges to the server', async () => {
    const [registering, caching, writing, reading] = await Promise.all([
      client(),
      client(),
      client(),
      client(),
    ]);
    await using ours = new ServiceDiscovery(registering, { basePath: BASE });
    await using writer = new ServiceDiscovery(writing, { basePath: BASE });
    await using watcher = new ServiceDiscovery(caching, { basePath: BASE });
    await Promise.all([ours.start(), writer.start(), watcher.start()]);
    await ours.registerService(instance('ours'));
    await writer.registerService(instance('w-1'));
    const cache = watcher.serviceCache('svc');
    await cache.start();
    expect(cache.instances().map((i) => i.id)).toEqual(['ours', 'w-1']);
    const before = await reading.exists(`${BASE}/svc/ours`);
    const sessions = [registering.sessionId, caching.sessionId];

    const leader = await fixture.ensemble.leader();
    await fixture.ensemble.kill(leader);
    await fixture.ensemble.waitForQuorum();
    // Changes made once the ensemble serves again, while some clients may still be reconnecting.
    await writer.registerService(instance('w-2'));
    await writer.unregisterService('w-1');

    await eventually(
      () =>
        cache
          .instances()
          .map((i) => i.id)
          .join() === 'ours,w-2',
      { timeoutMs: 60_000 },
    );
    const fresh = await ours.queryForInstances('svc');
    expect(cache.instances()).toEqual(fresh);
    expect([registering.sessionId, caching.sessionId]).toEqual(sessions);
    // Our check after the reconnect (ordered before this update) kept the node: same czxid, same owner.
    await ours.updateService(instance('ours'));
    const after = await reading.exists(`${BASE}/svc/ours`);
    expect([after?.czxid, after?.ephemeralOwner]).toEqual([before?.czxid, registering.sessionId]);

    await fixture.ensemble.start(leader);
    await fixture.ensemble.waitForQuorum();
  });
});
