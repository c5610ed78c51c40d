/** InterProcessSemaphoreV2 and InterProcessSemaphoreMutex against a real server. */
import { eventually } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { CountNodeReader } from '../src/internal-common/count-source.js';
import { NotLockOwnerError } from '../src/internal-common/recipe-errors.js';
import { InterProcessSemaphoreMutex } from '../src/locks/interprocess-semaphore-mutex.js';
import { InterProcessSemaphoreV2 } from '../src/locks/interprocess-semaphore-v2.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { childrenOf, type TestClient, useRealServer } from './helpers.js';

const int32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(n);
  return bytes;
};

describe('InterProcessSemaphoreV2 and InterProcessSemaphoreMutex', () => {
  const env = useRealServer({ clients: 3 });
  let a: TestClient;
  let b: TestClient;
  let c: TestClient;

  beforeAll(() => {
    [a, b, c] = [env.client(0), env.client(1), env.client(2)];
  });

  it("grants at most maxLeases, with Curator's locks/ and leases/ layout, and no node left on timeout", async () => {
    const path = '/sem/basic';
    const first = await new InterProcessSemaphoreV2(a, path, 2).acquire();
    const second = await new InterProcessSemaphoreV2(b, path, 2, { nodeData: 's2data' }).acquire();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const leases = await childrenOf(a, `${path}/leases`);
    expect(leases).toHaveLength(2);
    expect(leases.every((name) => /^_c_[0-9a-f-]{36}-lease-\d{10}$/.test(name))).toBe(true);
    expect(Buffer.from((await second?.getData()) ?? []).toString()).toBe('s2data');
    expect(await childrenOf(a, `${path}/locks`)).toEqual([]);

    const third = new InterProcessSemaphoreV2(c, path, 2);
    expect(await third.acquire({ timeoutMs: 300 })).toBeNull();
    expect(await childrenOf(a, `${path}/leases`)).toHaveLength(2);
    expect(await childrenOf(a, `${path}/locks`)).toEqual([]);

    const waiting = third.acquire({ timeoutMs: 30_000 });
    await first?.close();
    const lease = await waiting;
    expect(lease).not.toBeNull();
    expect(lease?.fencingToken).toBeGreaterThan(second?.fencingToken ?? 0);
    await lease?.close();
    await second?.close();
    expect(await childrenOf(a, `${path}/leases`)).toEqual([]);
  });

  it('acquires N all or none, and returns leases on dispose', async () => {
    const path = '/sem/many';
    const semaphore = new InterProcessSemaphoreV2(a, path, 3);
    const other = await new InterProcessSemaphoreV2(b, path, 3).acquire();
    expect(await semaphore.acquireMany(3, { timeoutMs: 300 })).toBeNull();
    expect(await childrenOf(a, `${path}/leases`)).toHaveLength(1);
    {
      await using scoped = new InterProcessSemaphoreV2(a, path, 3);
      const two = await scoped.acquireMany(2);
      expect(two).toHaveLength(2);
      expect(await scoped.getParticipantNodes()).toHaveLength(3);
    }
    expect(await childrenOf(a, `${path}/leases`)).toHaveLength(1);
    await other?.close();
  });

  it('keeps at most maxLeases holders under contention', async () => {
    const path = '/sem/contention';
    let holders = 0;
    let maxHolders = 0;
    // Every holder waits until two leases have been held at once, so the test shows that both leases are usable
    // together without depending on how the contenders happen to interleave.
    let twoHeld!: () => void;
    const twoHeldOnce = new Promise<void>((resolve) => {
      twoHeld = resolve;
    });
    await Promise.all(
      [...env.clients, ...env.clients].map(async (client) => {
        const semaphore = new InterProcessSemaphoreV2(client, path, 2);
        for (let round = 0; round < 3; round++) {
          const lease = await semaphore.acquire({ timeoutMs: 60_000 });
          expect(lease).not.toBeNull();
          holders += 1;
          maxHolders = Math.max(maxHolders, holders);
          if (holders === 2) twoHeld();
          await twoHeldOnce;
          holders -= 1;
          await lease?.close();
        }
      }),
    );
    expect(maxHolders).toBe(2);
    expect(await childrenOf(a, `${path}/leases`)).toEqual([]);
  });

  it('follows a max driven by a shared count (4-byte big-endian node)', async () => {
    const path = '/sem/shared';
    await a.create('/sem/shared-count', int32(1), { mode: 'persistent' });
    // One side follows the count with this package's SharedCount, the other reads the node bytes itself.
    const countA = new SharedCount(a, '/sem/shared-count', 1);
    await countA.start();
    const countB = await CountNodeReader.open(b, '/sem/shared-count');
    try {
      const held = await new InterProcessSemaphoreV2(a, path, countA).acquire();
      expect(held).not.toBeNull();
      const semaphore = new InterProcessSemaphoreV2(b, path, countB);
      expect(await semaphore.acquire({ timeoutMs: 300 })).toBeNull();
      const waiting = semaphore.acquire({ timeoutMs: 30_000 });
      await countA.setCount(2); // raising the max wakes the waiter
      const lease = await waiting;
      expect(lease).not.toBeNull();
      expect(semaphore.maxLeases).toBe(2);
      expect(held?.closed).toBe(false);
      await lease?.close();
      await held?.close();
    } finally {
      await countA.close();
      countB.close();
    }
  });

  it('gives up on abort with the reason, leaving no lease and no lock node', async () => {
    const path = '/sem/abort';
    const held = await new InterProcessSemaphoreV2(a, path, 1).acquire();
    const controller = new AbortController();
    const waiting = new InterProcessSemaphoreV2(b, path, 1).acquire({ signal: controller.signal });
    await eventually(async () => (await childrenOf(a, `${path}/leases`)).length === 2);
    const reason = new Error('no longer needed');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await eventually(async () => (await childrenOf(a, `${path}/locks`)).length === 0);
    expect(await childrenOf(a, `${path}/leases`)).toEqual([(held?.nodePath ?? '').split('/').pop()]);
    await held?.close();
  });

  it('refuses bad arguments', () => {
    expect(() => new InterProcessSemaphoreV2(a, '/sem/bad', 0)).toThrow(/maxLeases/);
    expect(() => new InterProcessSemaphoreV2(a, 'bad', 1)).toThrow(/path/);
  });
  it('is a non-reentrant lock: a second acquire from the same object waits', async () => {
    const mutex = new InterProcessSemaphoreMutex(a, '/semmutex/lock');
    expect(await mutex.acquire()).toBe(true);
    expect(await mutex.acquire({ timeoutMs: 300 })).toBe(false);
    const other = new InterProcessSemaphoreMutex(b, '/semmutex/lock');
    expect(await other.acquire({ timeoutMs: 300 })).toBe(false);
    await expect(other.release()).rejects.toBeInstanceOf(NotLockOwnerError);
    const waiting = other.acquire({ timeoutMs: 30_000 });
    await mutex.release();
    expect(await waiting).toBe(true);
    expect(await childrenOf(a, '/semmutex/lock/leases')).toHaveLength(1);
    await other.release();
    expect(await childrenOf(a, '/semmutex/lock/leases')).toEqual([]);
  });
});
