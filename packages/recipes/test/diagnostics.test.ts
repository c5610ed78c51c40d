/** The recipes' diagnostics channels against a real server: lock and lease holds, leadership. */

import diagnostics from 'node:diagnostics_channel';
import { eventually } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type HoldMessage,
  InterProcessMutex,
  InterProcessSemaphoreV2,
  LeaderLatch,
  type LeadershipMessage,
  RecipeChannelName,
} from '../src/index.js';
import { type TestClient, useRealServer } from './helpers.js';

function record<T>(name: string): { messages: T[]; stop: () => void } {
  const messages: T[] = [];
  const listener = (message: unknown) => messages.push(message as T);
  diagnostics.subscribe(name, listener);
  return { messages, stop: () => diagnostics.unsubscribe(name, listener) };
}

describe('recipe diagnostics channels', () => {
  const env = useRealServer({ clients: 1 });
  let zk: TestClient;
  beforeAll(() => {
    zk = env.client(0);
  });

  it('publishes a lock acquired (with its wait) and released (with how long it was held), and leases', async () => {
    const holds = record<HoldMessage>(RecipeChannelName.hold);
    try {
      const mutex = new InterProcessMutex(zk, '/diag/lock');
      expect(await mutex.acquire()).toBe(true);
      const node = mutex.lockNodePath!;
      await mutex.release();
      const semaphore = new InterProcessSemaphoreV2(zk, '/diag/semaphore', 2);
      const lease = await semaphore.acquire();
      await lease!.close();
      // An options object where the count belongs is refused before anything is sent.
      expect(() => new InterProcessSemaphoreV2(zk, '/diag/semaphore', { maxLeases: 2 } as never)).toThrow(
        /maxLeases/,
      );
      expect(holds.messages).toEqual([
        { event: 'acquired', kind: 'lock', path: node, waitMs: expect.any(Number) },
        { event: 'released', kind: 'lock', path: node, heldMs: expect.any(Number) },
        // The semaphore's own gate is a mutex: acquired and released around the lease.
        expect.objectContaining({ event: 'acquired', kind: 'lock' }),
        { event: 'acquired', kind: 'lease', path: lease!.nodePath, waitMs: expect.any(Number) },
        expect.objectContaining({ event: 'released', kind: 'lock' }),
        { event: 'released', kind: 'lease', path: lease!.nodePath, heldMs: expect.any(Number) },
      ]);
    } finally {
      holds.stop();
    }
  });

  it('publishes leadership gained and lost (closed) for a LeaderLatch', async () => {
    const leadership = record<LeadershipMessage>(RecipeChannelName.leadership);
    try {
      const latch = new LeaderLatch(zk, '/diag/latch', { id: 'node-a' });
      await latch.start();
      await eventually(() => latch.hasLeadership);
      await latch.close();
      expect(leadership.messages).toEqual([
        { event: 'gained', recipe: 'LeaderLatch', path: '/diag/latch', id: 'node-a' },
        {
          event: 'lost',
          recipe: 'LeaderLatch',
          path: '/diag/latch',
          id: 'node-a',
          reason: expect.any(String),
        },
      ]);
    } finally {
      leadership.stop();
    }
  });
});
