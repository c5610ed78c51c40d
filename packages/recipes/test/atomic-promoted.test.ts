/**
 * PromotedToLock on the distributed atomics against a real ZooKeeper server: an update whose optimistic rounds
 * all lost is tried again under an InterProcessMutex at the lock path, with its own retries and timeout, and
 * the stats say how many tries each phase took.
 */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { DistributedAtomicInteger, DistributedAtomicLong } from '../src/atomic/atomic-number.js';
import { DistributedAtomicValue } from '../src/atomic/distributed-atomic-value.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { racingClient } from './atomic-helpers.js';
import { childrenOf, type TestClient, useRealServer } from './helpers.js';

describe('PromotedToLock (real server)', () => {
  const env = useRealServer({ clients: 3 });

  it('after every optimistic round lost, succeeds under the lock, and the stats count both phases', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/promoted/basic';
    const lockPath = '/t/promoted/basic-lock';
    await new DistributedAtomicLong(a, path).forceSet(41n);
    const racing = racingClient(a, b, path, 2, lockPath);
    const counter = new DistributedAtomicLong(racing.client, path, {
      retry: { maxRetries: 1, sleepMs: 0 },
      promotedToLock: { lockPath },
    });
    const result = await counter.increment();
    expect(result).toMatchObject({
      succeeded: true,
      preValue: 41n,
      postValue: 42n,
      attempts: 3,
      stats: { optimisticTries: 2, promotedTries: 1 },
    });
    expect(result.stats.optimisticTimeMs).toBeGreaterThanOrEqual(0);
    expect(result.stats.promotedTimeMs).toBeGreaterThanOrEqual(0);
    // The two optimistic reads were made without the lock, the promoted one while our contender held it.
    expect(racing.lockContendersAtRead).toEqual([0, 0, 1]);
    expect(await childrenOf(a, lockPath)).toEqual([]);
    expect((await new DistributedAtomicLong(b, path).get()).postValue).toBe(42n);
  });

  it('without promotion, an update that wins its first round takes no lock and counts no promoted tries', async () => {
    const [a] = env.clients as [TestClient];
    const counter = new DistributedAtomicInteger(a, '/t/promoted/uncontended', {
      promotedToLock: { lockPath: '/t/promoted/uncontended-lock' },
    });
    expect(await counter.add(5)).toMatchObject({
      succeeded: true,
      postValue: 5,
      stats: { optimisticTries: 1, promotedTries: 0, promotedTimeMs: 0 },
    });
    expect(await a.exists('/t/promoted/uncontended-lock')).toBeNull();
  });

  it('retries under the lock as its own retry settings allow, and reports failure when they are used up', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/promoted/retries';
    const lockPath = '/t/promoted/retries-lock';
    await new DistributedAtomicLong(a, path).forceSet(0n);
    const threeLosses = racingClient(a, b, path, 3);
    const patient = new DistributedAtomicLong(threeLosses.client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath, retry: { maxRetries: 2, sleepMs: 0 } },
    });
    expect(await patient.increment()).toMatchObject({
      succeeded: true,
      postValue: 1n,
      stats: { optimisticTries: 1, promotedTries: 3 },
    });

    // Curator's default under the lock is a single try.
    const twoLosses = racingClient(a, b, path, 2);
    const once = new DistributedAtomicLong(twoLosses.client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath },
    });
    expect(await once.increment()).toMatchObject({
      succeeded: false,
      preValue: 1n,
      postValue: 1n,
      attempts: 2,
      stats: { optimisticTries: 1, promotedTries: 1 },
    });
    expect((await patient.get()).postValue).toBe(1n);
    expect(await childrenOf(a, lockPath)).toEqual([]);
  });

  it('waits for the lock held by another session, and with a timeout gives up without a try', async () => {
    const [a, b, c] = env.clients as [TestClient, TestClient, TestClient];
    const path = '/t/promoted/held';
    const lockPath = '/t/promoted/held-lock';
    await new DistributedAtomicLong(a, path).forceSet(10n);
    await using holder = new InterProcessMutex(c, lockPath);
    expect(await holder.acquire()).toBe(true);

    const impatient = new DistributedAtomicLong(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath, timeoutMs: 200 },
    });
    expect(await impatient.increment()).toMatchObject({
      succeeded: false,
      stats: { optimisticTries: 1, promotedTries: 0 },
    });
    expect(await childrenOf(a, lockPath)).toHaveLength(1); // only the holder's node: ours was removed

    const waiting = new DistributedAtomicLong(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath },
    });
    const pending = waiting.add(5n);
    await eventually(async () => (await childrenOf(a, lockPath)).length === 2);
    await holder.release();
    expect(await pending).toMatchObject({
      succeeded: true,
      preValue: 10n,
      postValue: 15n,
      stats: { optimisticTries: 1, promotedTries: 1 },
    });
  });

  it('disposing the atomic while it waits for the lock rejects the call with ILLEGAL_STATE and leaves no contender', async () => {
    const [a, b, c] = env.clients as [TestClient, TestClient, TestClient];
    const path = '/t/promoted/dispose';
    const lockPath = '/t/promoted/dispose-lock';
    await new DistributedAtomicLong(a, path).forceSet(0n);
    await using holder = new InterProcessMutex(c, lockPath);
    await holder.acquire();
    const counter = new DistributedAtomicLong(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath },
    });
    const pending = counter.increment();
    await eventually(async () => (await childrenOf(a, lockPath)).length === 2);
    await counter[Symbol.asyncDispose]();
    await expect(pending).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await eventually(async () => (await childrenOf(a, lockPath)).length === 1);
    expect((await counter.get()).postValue).toBe(0n);
  });

  it("aborting the call's signal while it waits for the lock rejects with the reason and leaves no contender", async () => {
    const [a, b, c] = env.clients as [TestClient, TestClient, TestClient];
    const path = '/t/promoted/abort';
    const lockPath = '/t/promoted/abort-lock';
    await new DistributedAtomicLong(a, path).forceSet(0n);
    await using holder = new InterProcessMutex(c, lockPath);
    await holder.acquire();
    const counter = new DistributedAtomicLong(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath },
    });
    const controller = new AbortController();
    const pending = counter.increment({ signal: controller.signal });
    await eventually(async () => (await childrenOf(a, lockPath)).length === 2);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await eventually(async () => (await childrenOf(a, lockPath)).length === 1);
    expect((await counter.get()).postValue).toBe(0n);
  });

  it('many contenders on two sessions, optimistic and promoted, count exactly', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/promoted/contended';
    const options = {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath: '/t/promoted/contended-lock', retry: { maxRetries: 500, sleepMs: 1 } },
    };
    const counters = [a, a, b, b].map((client) => new DistributedAtomicLong(client, path, options));
    const perWorker = 15;
    // Two workers per counter object: concurrent calls on one object must exclude each other under the lock too.
    const workers = [...counters, ...counters].map(async (counter) => {
      const results = [];
      for (let i = 0; i < perWorker; i++) results.push(await counter.increment());
      return results;
    });
    const results = (await Promise.all(workers)).flat();
    expect(results.every((result) => result.succeeded)).toBe(true);
    expect((await counters[0]?.get())?.postValue).toBe(BigInt(8 * perWorker));
    // Every post value was handed out once: no two increments saw the same pre value.
    expect(new Set(results.map((result) => result.postValue)).size).toBe(8 * perWorker);
  });

  it('the raw DistributedAtomicValue promotes trySet too', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/promoted/raw';
    await new DistributedAtomicValue(a, path).forceSet(Uint8Array.of(1));
    const value = new DistributedAtomicValue(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath: '/t/promoted/raw-lock' },
    });
    expect(await value.trySet(Uint8Array.of(2))).toMatchObject({
      succeeded: true,
      preValue: Uint8Array.of(1),
      postValue: Uint8Array.of(2),
      stats: { optimisticTries: 1, promotedTries: 1 },
    });
  });

  it('refuses bad promotion options with INVALID_ARGUMENT at construction', () => {
    const [a] = env.clients as [TestClient];
    const bad: unknown[] = [
      'lock',
      null,
      {},
      { lockPath: 'relative' },
      { lockPath: '/l/' },
      { lockPath: '/l', retry: { maxRetries: -1 } },
      { lockPath: '/l', retry: { maxRetries: 1.5 } },
      { lockPath: '/l', retry: { sleepMs: Number.NaN } },
      { lockPath: '/l', retry: 3 },
      { lockPath: '/l', timeoutMs: -1 },
      { lockPath: '/l', timeoutMs: Number.POSITIVE_INFINITY },
    ];
    for (const promotedToLock of bad) {
      expect(() => new DistributedAtomicLong(a, '/t/promoted/bad', { promotedToLock } as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', name: 'InvalidRecipeArgumentError' }),
      );
    }
  });
});
