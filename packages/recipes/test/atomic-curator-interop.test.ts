/**
 * The distributed atomics next to real Curator (5.9.0 by default, a Java driver compiled at test time) on one
 * real server: Curator's DistributedAtomicLong with PromotedToLock and ours increment one counter at once and
 * the total is exact; our promoted update waits for the InterProcessMutex Curator holds at the lock path; our
 * CachedAtomicLong/CachedAtomicInteger and Curator's take disjoint id ranges from one counter.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistributedAtomicInteger, DistributedAtomicLong } from '../src/atomic/atomic-number.js';
import { CachedAtomicInteger, CachedAtomicLong } from '../src/atomic/cached-atomic-number.js';
import { racingClient } from './atomic-helpers.js';
import { childrenOf, closeAll, openClient, type TestClient } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

describe('distributed atomics interop with Curator (real server)', () => {
  let server: ZooKeeperServer;
  let java: JavaDriver;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    server = await startZooKeeper();
    [java, a, b] = await Promise.all([
      startJavaDriver({
        connectString: server.connectString,
        handlers: ['drivers-atomic/AtomicHandler.java'],
      }),
      openClient(server.connectString),
      openClient(server.connectString),
    ]);
  });

  afterAll(async () => {
    await java?.close();
    await closeAll([a, b]);
    await server?.stop();
  });

  it("Curator's promoted DistributedAtomicLong and ours, incrementing one counter at once, count exactly", async () => {
    const path = '/interop/atomic/promoted';
    const lockPath = '/interop/atomic/promoted-lock';
    const times = 30;
    // Optimistic rounds of one try each and many tries under the lock: contention sends updates to the lock.
    for (const actor of ['j1', 'j2']) {
      await java.call(actor, 'long.promoted', actor, path, 0, 0, lockPath, 500, 1, -1);
    }
    const options = {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath, retry: { maxRetries: 500, sleepMs: 1 } },
    };
    const ours = [a, b].map((client) => new DistributedAtomicLong(client, path, options));
    const javaRuns = ['j1', 'j2'].map((actor) => java.call(actor, 'long.increments', actor, times));
    const nodeRuns = ours.map(async (counter) => {
      const results = [];
      for (let i = 0; i < times; i++) results.push(await counter.increment());
      return results;
    });
    const [javaReplies, nodeResults] = await Promise.all([Promise.all(javaRuns), Promise.all(nodeRuns)]);
    const javaSucceeded = javaReplies.map((reply) => Number(reply.split(' ')[0]));
    expect(javaSucceeded).toEqual([times, times]);
    expect(nodeResults.flat().every((result) => result.succeeded)).toBe(true);
    expect(await java.call('j1', 'long.get', 'j1')).toBe(String(4 * times));
    expect((await ours[0]?.get())?.postValue).toBe(BigInt(4 * times));
    expect(await childrenOf(a, lockPath)).toEqual([]);
  });

  it('our promoted update waits for the lock Curator holds at the lock path', async () => {
    const path = '/interop/atomic/held';
    const lockPath = '/interop/atomic/held-lock';
    await new DistributedAtomicLong(a, path).forceSet(7n);
    await java.call('holder', 'mutex.acquire', lockPath);
    const counter = new DistributedAtomicLong(racingClient(a, b, path, 1).client, path, {
      retry: { maxRetries: 0 },
      promotedToLock: { lockPath },
    });
    const pending = counter.increment();
    await eventually(async () => (await childrenOf(a, lockPath)).length === 2);
    await java.call('holder', 'mutex.release', lockPath);
    expect(await pending).toMatchObject({
      succeeded: true,
      preValue: 7n,
      postValue: 8n,
      stats: { optimisticTries: 1, promotedTries: 1 },
    });
    await java.call('reader', 'long.new', 'reader', path, 0, 0);
    expect(await java.call('reader', 'long.get', 'reader')).toBe('8');
  });

  it("our CachedAtomicLong and Curator's take disjoint ranges of one counter", async () => {
    const path = '/interop/atomic/cached-long';
    await java.call('j', 'long.new', 'jlong', path, 10, 1);
    await java.call('j', 'cached.long', 'jcached', 'jlong', 4);
    const ours = new CachedAtomicLong(
      new DistributedAtomicLong(a, path, { retry: { maxRetries: 10, sleepMs: 1 } }),
      4,
    );
    const javaIds: bigint[] = [];
    const nodeIds: bigint[] = [];
    for (let round = 0; round < 3; round++) {
      const [reply, results] = await Promise.all([
        java.call('j', 'cached.next', 'jcached', 6),
        Promise.all(Array.from({ length: 6 }, () => ours.next())),
      ]);
      javaIds.push(...reply.split(',').map(BigInt));
      nodeIds.push(...results.map((result) => result.preValue));
      expect(results.every((result) => result.succeeded)).toBe(true);
    }
    const all = new Set([...javaIds, ...nodeIds]);
    expect(all.size).toBe(36);
    // Each side used 18 ids of ranges of 4: five ranges each, ten in all, the counter moved by 40.
    expect((await new DistributedAtomicLong(b, path).get()).postValue).toBe(40n);
    expect([...all].every((id) => id >= 0n && id < 40n)).toBe(true);
    // Ids come in whole ranges per side: an id's range (id / 4) belongs to one side only.
    const javaRanges = new Set(javaIds.map((id) => id / 4n));
    expect(nodeIds.some((id) => javaRanges.has(id / 4n))).toBe(false);
  });

  it("our CachedAtomicInteger and Curator's take disjoint ranges of one counter", async () => {
    const path = '/interop/atomic/cached-int';
    await java.call('j', 'int.new', 'jint', path, 10, 1);
    await java.call('j', 'cached.int', 'jcachedint', 'jint', 3);
    const ours = new CachedAtomicInteger(
      new DistributedAtomicInteger(a, path, { retry: { maxRetries: 10, sleepMs: 1 } }),
      3,
    );
    const [reply, results] = await Promise.all([
      java.call('j', 'cached.next', 'jcachedint', 9),
      Promise.all(Array.from({ length: 9 }, () => ours.next())),
    ]);
    const javaIds = reply.split(',').map(Number);
    const nodeIds = results.map((result) => result.preValue);
    expect(new Set([...javaIds, ...nodeIds]).size).toBe(18);
    expect([...javaIds, ...nodeIds].sort((x, y) => x - y)).toEqual(Array.from({ length: 18 }, (_, i) => i));
    expect((await new DistributedAtomicInteger(b, path).get()).postValue).toBe(18);
  });
});
