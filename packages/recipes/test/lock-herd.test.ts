/** Herd-free waiting: one release wakes exactly one waiter (real server, watch events counted). */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { countWatchEvents, useRealServer, watchBarrier } from './helpers.js';

describe('InterProcessMutex waiting is herd-free', () => {
  const env = useRealServer({ clients: 5 });

  it('wakes exactly one waiter per release', async () => {
    const counted = env.clients.map((client) => countWatchEvents(client));
    const mutexes = counted.map(({ client }) => new InterProcessMutex(client, '/herd/lock'));
    const [holder, ...waiters] = mutexes as [InterProcessMutex, ...InterProcessMutex[]];
    await holder.acquire();
    // Queue the waiters one by one, so the order is known.
    const acquired: Promise<boolean>[] = [];
    for (const [i, waiter] of waiters.entries()) {
      acquired.push(waiter.acquire());
      await eventually(async () => (await holder.getParticipantNodes()).length === i + 2);
    }
    const totalFired = () => counted.reduce((sum, c) => sum + c.fired(), 0);
    // Every waiter has armed its watch once it is queued; none has fired yet.
    expect(totalFired()).toBe(0);

    let current = holder;
    for (const [i, next] of waiters.entries()) {
      const before = totalFired();
      await current.release();
      expect(await acquired[i]).toBe(true);
      expect(next.isAcquiredInThisProcess()).toBe(true);
      // A later write seen by every client: any wake-up caused by the release has arrived before it.
      await watchBarrier(env.clients, env.client(0), `/herd/barrier-${i}`);
      expect(totalFired() - before).toBe(1);
      for (const later of waiters.slice(i + 1)) expect(later.isAcquiredInThisProcess()).toBe(false);
      current = next;
    }
    await current.release();
  });
});
