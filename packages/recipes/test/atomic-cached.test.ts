/**
 * CachedAtomicLong and CachedAtomicInteger against a real ZooKeeper server: ids come from ranges of
 * `cacheFactor` taken from a shared counter with one atomic add, so allocators on different sessions never hand
 * out the same id.
 */
import { describe, expect, it } from 'vitest';
import { DistributedAtomicInteger, DistributedAtomicLong } from '../src/atomic/atomic-number.js';
import { CachedAtomicInteger, CachedAtomicLong } from '../src/atomic/cached-atomic-number.js';
import { racingClient } from './atomic-helpers.js';
import { type TestClient, useRealServer } from './helpers.js';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => BigInt(from + i));

describe('CachedAtomicLong / CachedAtomicInteger (real server)', () => {
  const env = useRealServer({ clients: 2 });

  it('two allocators on two sessions hand out disjoint ids, taking one range per cacheFactor ids', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/cached/two';
    const first = new CachedAtomicLong(new DistributedAtomicLong(a, path), 5);
    const second = new CachedAtomicLong(new DistributedAtomicLong(b, path), 5);
    const seen: bigint[] = [];
    // Interleaved: first takes [0,5), second [5,10); then both ask at once for more than they hold.
    for (let i = 0; i < 3; i++) {
      const [x, y] = [await first.next(), await second.next()];
      expect(x).toMatchObject({ succeeded: true, postValue: x.preValue + 1n });
      expect(y).toMatchObject({ succeeded: true, postValue: y.preValue + 1n });
      seen.push(x.preValue, y.preValue);
    }
    expect(seen).toEqual([0n, 5n, 1n, 6n, 2n, 7n]);
    const rest = await Promise.all(
      [first, second].flatMap((allocator) => Array.from({ length: 12 }, () => allocator.next())),
    );
    seen.push(...rest.map((result) => result.preValue));
    expect(rest.every((result) => result.succeeded)).toBe(true);
    // 15 ids each: three whole ranges each, six ranges in all, every id once.
    expect(new Set(seen).size).toBe(30);
    expect([...seen].sort((x, y) => Number(x - y))).toEqual(range(0, 30));
    expect((await new DistributedAtomicLong(a, path).get()).postValue).toBe(30n);
  });

  it('concurrent next() calls on one allocator take one range, not one each', async () => {
    const [a] = env.clients as [TestClient];
    const path = '/t/cached/concurrent';
    const allocator = new CachedAtomicLong(new DistributedAtomicLong(a, path), 10);
    const results = await Promise.all(Array.from({ length: 10 }, () => allocator.next()));
    expect(results.map((result) => result.preValue)).toEqual(range(0, 10));
    // The call that took the range carries the add's stats; the others made no tries.
    expect(results[0]?.stats.optimisticTries).toBe(1);
    expect(results.slice(1).every((result) => result.stats.optimisticTries === 0)).toBe(true);
    expect((await new DistributedAtomicLong(a, path).get()).postValue).toBe(10n);
    expect((await allocator.next()).preValue).toBe(10n);
    expect((await new DistributedAtomicLong(a, path).get()).postValue).toBe(20n);
  });

  it('CachedAtomicInteger wraps at 32 bits as Java int does', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/cached/int-wrap';
    await new DistributedAtomicInteger(a, path).forceSet(2 ** 31 - 2);
    const allocator = new CachedAtomicInteger(new DistributedAtomicInteger(a, path), 4);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await allocator.next()).preValue);
    expect(ids).toEqual([2147483646, 2147483647, -2147483648, -2147483647]);
    expect((await new DistributedAtomicInteger(b, path).get()).postValue).toBe(-2147483646);
  });

  it('a range add that loses every round hands out no id, and the next call takes the range', async () => {
    const [a, b] = env.clients as [TestClient, TestClient];
    const path = '/t/cached/lost';
    await new DistributedAtomicLong(a, path).forceSet(100n);
    const racing = racingClient(a, b, path, 1);
    const allocator = new CachedAtomicLong(
      new DistributedAtomicLong(racing.client, path, { retry: { maxRetries: 0 } }),
      3,
    );
    expect(await allocator.next()).toMatchObject({ succeeded: false, preValue: 0n, postValue: 0n });
    expect((await allocator.next()).preValue).toBe(100n);
    expect((await allocator.next()).preValue).toBe(101n);
    expect((await new DistributedAtomicLong(a, path).get()).postValue).toBe(103n);
  });

  it('refuses a bad cacheFactor or counter with INVALID_ARGUMENT, before anything is sent', async () => {
    const [a] = env.clients as [TestClient];
    const path = '/t/cached/bad';
    const long = new DistributedAtomicLong(a, path);
    for (const cacheFactor of [0, -1, 1.5, 2 ** 31, Number.NaN, '5']) {
      expect(() => new CachedAtomicLong(long, cacheFactor as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', name: 'InvalidRecipeArgumentError' }),
      );
    }
    expect(() => new CachedAtomicLong(new DistributedAtomicInteger(a, path) as never, 5)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new CachedAtomicInteger(long as never, 5)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new CachedAtomicInteger(null as never, 5)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(await a.exists(path)).toBeNull();
    expect(new CachedAtomicLong(long, 2 ** 31 - 1).cacheFactor).toBe(2 ** 31 - 1);
  });
});
