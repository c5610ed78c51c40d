/** SharedCount, SharedValue and the distributed atomics against a real ZooKeeper server. */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { DistributedAtomicInteger, DistributedAtomicLong } from '../src/atomic/atomic-number.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { deferred, openClient, type TestClient, useRealServer } from './helpers.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('counters (real server)', () => {
  const env = useRealServer({ clients: 3, faultProxy: true });

  describe('SharedCount', () => {
    it('seeds once, stores 4 big-endian bytes and tells every participant of changes', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      await using first = new SharedCount(a, '/t/count/basic', -2);
      await using second = new SharedCount(b, '/t/count/basic', 99); // the node exists: its seed is ignored
      await first.start();
      await second.start();
      expect(second.count).toBe(-2);
      expect(hex((await a.getData('/t/count/basic')).data)).toBe('fffffffe');

      const seen = deferred<number>();
      second.on('change', (count) => {
        if (count === 41) seen.resolve(count);
      });
      await first.setCount(41);
      expect(await seen.promise).toBe(41);
      expect(second.count).toBe(41);
      expect(hex((await a.getData('/t/count/basic')).data)).toBe('00000029');
    });

    it('compare-and-sets on the data version: exactly one of two racing updates from the same version wins', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      await using first = new SharedCount(a, '/t/count/cas', 0);
      await using second = new SharedCount(b, '/t/count/cas', 0);
      await first.start();
      await second.start();
      const before = first.versionedValue;
      expect(second.versionedValue).toEqual(before);
      const results = await Promise.all([first.trySetCount(before, 1), second.trySetCount(before, 2)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? 1 : 2;
      const { data, stat } = await a.getData('/t/count/cas');
      expect(hex(data)).toBe(`0000000${winner}`);
      expect(stat.version).toBe(before.version + 1);
      // A stale version is refused without a write.
      expect(await first.trySetCount(before, 7)).toBe(false);
      expect((await a.getData('/t/count/cas')).stat.version).toBe(before.version + 1);
    });

    it('catches up with a change made while its connection was down', async () => {
      const [a] = env.clients as [TestClient];
      const viaProxy = await openClient(env.proxy.connectString);
      try {
        await using count = new SharedCount(viaProxy, '/t/count/reconnect', 1);
        await count.start();
        env.proxy.pause(); // nothing reaches the client: the change notification is held back
        await a.setData('/t/count/reconnect', Buffer.from('0000004d', 'hex'));
        expect(count.count).toBe(1);
        env.proxy.cut();
        env.proxy.resume();
        await eventually(() => count.count === 77);
      } finally {
        await viaProxy.close();
      }
    });

    it('refuses bad input, and reports a node too short to be a count as BAD_DATA', async () => {
      const [a] = env.clients as [TestClient];
      expect(() => new SharedCount(a, '/t/count/bad', 2 ** 31)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() => new SharedCount(a, '/t/count/bad', 0, { compression: 'zstd' as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      await using count = new SharedCount(a, '/t/count/short', 1);
      await count.start();
      await expect(count.setCount(1.5)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      const failed = deferred<unknown>();
      count.on('error', (error) => failed.resolve(error));
      await a.setData('/t/count/short', new Uint8Array([1, 2]));
      expect(await failed.promise).toMatchObject({ code: 'BAD_DATA' });
    });
  });

  describe('DistributedAtomicLong', () => {
    it('reads a missing node as 0 and writes 8 big-endian bytes', async () => {
      const [a] = env.clients as [TestClient];
      const counter = new DistributedAtomicLong(a, '/t/along/basic');
      expect(await counter.get()).toMatchObject({ succeeded: true, preValue: 0n, postValue: 0n });
      expect(await counter.increment()).toMatchObject({ succeeded: true, preValue: 0n, postValue: 1n });
      expect(await counter.add(255)).toMatchObject({ succeeded: true, preValue: 1n, postValue: 256n });
      expect(hex((await a.getData('/t/along/basic')).data)).toBe('0000000000000100');
      expect(await counter.subtract(300n)).toMatchObject({ postValue: -44n });
      expect(await counter.compareAndSet(0n, 5n)).toMatchObject({ succeeded: false, preValue: -44n });
      expect(await counter.compareAndSet(-44n, 5n)).toMatchObject({ succeeded: true, postValue: 5n });
      expect(await counter.initialize(9)).toBe(false);
      await counter.forceSet(2n ** 63n - 1n);
      expect(await counter.increment()).toMatchObject({ postValue: -(2n ** 63n) }); // wraps like Java's long
    });

    it('loses no update when several env.clients increment at once', async () => {
      const counters = env.clients.map(
        (client) =>
          new DistributedAtomicLong(client, '/t/along/contention', {
            retry: { maxRetries: 1000, sleepMs: 1 },
          }),
      );
      const results = await Promise.all(
        counters.flatMap((counter) => Array.from({ length: 20 }, () => counter.increment())),
      );
      expect(results.every((result) => result.succeeded)).toBe(true);
      expect(new Set(results.map((result) => result.postValue)).size).toBe(60); // each increment saw a new value
      expect((await (counters[0] as DistributedAtomicLong).get()).postValue).toBe(60n);
    });

    it('stops on an aborted signal or after dispose, without writing', async () => {
      const [a] = env.clients as [TestClient];
      const path = '/t/along/stop';
      await new DistributedAtomicLong(a, path).forceSet(10n);
      const versionBefore = (await a.getData(path)).stat.version;
      const counter = new DistributedAtomicLong(a, path);
      await expect(counter.increment({ signal: AbortSignal.abort(new Error('not now')) })).rejects.toThrow(
        'not now',
      );
      await counter[Symbol.asyncDispose]();
      await expect(counter.increment()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      expect((await a.getData(path)).stat.version).toBe(versionBefore);
    });

    it('reports failure instead of throwing when every optimistic attempt loses', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      const path = '/t/along/no-retry';
      await new DistributedAtomicLong(a, path).forceSet(0n);
      const stubborn = new DistributedAtomicLong(a, path, { retry: { maxRetries: 0 } });
      // Another writer changes the node between the read and the write of every attempt.
      const racing = new Proxy(a, {
        get(target, property) {
          if (property !== 'getData') return Reflect.get(target, property, target);
          return async (p: string) => {
            const result = await target.getData(p);
            await b.setData(p, result.data);
            return result;
          };
        },
      });
      const loser = new DistributedAtomicLong(racing, path, { retry: { maxRetries: 2, sleepMs: 0 } });
      expect(await loser.increment()).toMatchObject({ succeeded: false, attempts: 3 });
      expect(await stubborn.increment()).toMatchObject({ succeeded: true, attempts: 1, postValue: 1n });
    });
  });

  describe('DistributedAtomicInteger', () => {
    it('shares the 4-byte layout of SharedCount', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      const counter = new DistributedAtomicInteger(a, '/t/aint/shared');
      expect(await counter.add(-3)).toMatchObject({ succeeded: true, postValue: -3 });
      expect(hex((await a.getData('/t/aint/shared')).data)).toBe('fffffffd');
      await using count = new SharedCount(b, '/t/aint/shared', 0);
      await count.start();
      expect(count.count).toBe(-3);
    });
  });
});
