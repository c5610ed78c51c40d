/**
 * Session loss while holding: the holder's session expires (its traffic dropped by a fault proxy), the lock
 * passes to the next waiter, and the holder is told through its "lost" event and signal.
 */
import {
  eventually,
  type FaultProxy,
  startFaultProxy,
  startZooKeeper,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoldLostError, type LostEvent } from '../src/internal-common/hold-monitor.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { InterProcessSemaphoreV2 } from '../src/locks/interprocess-semaphore-v2.js';
import { closeAll, openClient, type TestClient } from './helpers.js';

const SESSION_TIMEOUT_MS = 2_000;

describe('a holder whose session expires', () => {
  let server: ZooKeeperServer;
  let proxy: FaultProxy | undefined;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    // tickTime 500 lets the server grant a 2 s session, so expiry comes quickly.
    server = await startZooKeeper({ tickTime: 500 });
  });

  afterAll(async () => {
    await closeAll(clients);
    await proxy?.close();
    await server?.stop();
  });

  async function isolatedHolder(): Promise<{ client: TestClient; proxy: FaultProxy }> {
    await proxy?.close();
    proxy = await startFaultProxy({ host: server.host, port: server.port });
    const client = await openClient(proxy.connectString, SESSION_TIMEOUT_MS);
    clients.push(client);
    return { client, proxy };
  }

  it('loses the mutex to the next waiter and hears "suspended", then the waiter holds', async () => {
    const { client: holderClient, proxy: holderProxy } = await isolatedHolder();
    const waiterClient = await openClient(server.connectString);
    clients.push(waiterClient);
    const holder = new InterProcessMutex(holderClient, '/session/mutex');
    const waiter = new InterProcessMutex(waiterClient, '/session/mutex');
    expect(await holder.acquire()).toBe(true);
    const lostEvents: LostEvent[] = [];
    holder.on('lost', (event) => lostEvents.push(event));
    const lostSignal = holder.lostSignal as AbortSignal;
    expect(lostSignal.aborted).toBe(false);
    const waiting = waiter.acquire({ timeoutMs: 60_000 });

    holderProxy.drop(true); // the holder hears nothing more; the server expires its session

    expect(await waiting).toBe(true);
    await eventually(() => lostEvents.length > 0);
    expect(lostEvents[0]).toEqual({ reason: 'suspended', path: holder.lockNodePath });
    expect(lostSignal.aborted).toBe(true);
    expect(lostSignal.reason).toBeInstanceOf(HoldLostError);
    expect(lostEvents).toHaveLength(1); // reported once

    holderProxy.drop(false);
    // The stale holder can still release locally; its node is already gone with its session.
    await holder.release();
    expect(waiter.isAcquiredInThisProcess()).toBe(true);
    expect(await waiter.getParticipantNodes()).toEqual([waiter.lockNodePath]);
    await waiter.release();
  });

  it('with lostOn "lost", reports only the session loss (after reconnecting finds it expired)', async () => {
    const { client: holderClient, proxy: holderProxy } = await isolatedHolder();
    const semaphore = new InterProcessSemaphoreV2(holderClient, '/session/semaphore', 1, { lostOn: 'lost' });
    const lease = await semaphore.acquire();
    expect(lease).not.toBeNull();
    const reasons: string[] = [];
    lease?.on('lost', (event) => reasons.push(event.reason));
    holderProxy.drop(true);
    await eventually(() => holderClient.state === 'suspended' || holderClient.state === 'connecting', {
      timeoutMs: 10_000,
    });
    expect(reasons).toEqual([]); // suspended alone is not reported under this policy
    // Wait past the session timeout, then let the client reconnect: the server says the session expired.
    const observer = await openClient(server.connectString);
    clients.push(observer);
    await eventually(async () => (await observer.getChildren('/session/semaphore/leases')).length === 0, {
      timeoutMs: 10_000,
    });
    holderProxy.drop(false);
    await eventually(() => reasons.length > 0, { timeoutMs: 10_000 });
    expect(reasons).toEqual(['lost']);
    expect(lease?.lostSignal.aborted).toBe(true);
  });
});
