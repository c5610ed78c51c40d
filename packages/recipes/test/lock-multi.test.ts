/** InterProcessMultiLock against a real server. */
import { beforeAll, describe, expect, it } from 'vitest';
import { NotLockOwnerError } from '../src/internal-common/recipe-errors.js';
import type { InterProcessLock } from '../src/locks/interprocess-lock.js';
import { InterProcessMultiLock } from '../src/locks/interprocess-multi-lock.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { InterProcessSemaphoreMutex } from '../src/locks/interprocess-semaphore-mutex.js';
import { childrenOf, type TestClient, useRealServer } from './helpers.js';

describe('InterProcessMultiLock', () => {
  const env = useRealServer({ clients: 3 });
  let a: TestClient;
  let b: TestClient;

  beforeAll(() => {
    [a, b] = [env.client(0), env.client(1)];
  });

  it('takes all or none: a timeout on the second lock gives the first back', async () => {
    const blocker = new InterProcessMutex(b, '/multi/none/b');
    await blocker.acquire();
    const multi = new InterProcessMultiLock(a, ['/multi/none/a', '/multi/none/b']);
    expect(await multi.acquire({ timeoutMs: 300 })).toBe(false);
    expect(multi.isAcquiredInThisProcess()).toBe(false);
    expect(multi.locks.some((lock) => lock.isAcquiredInThisProcess())).toBe(false);
    expect(await childrenOf(a, '/multi/none/a')).toEqual([]);
    expect(await childrenOf(a, '/multi/none/b')).toHaveLength(1);
    await blocker.release();
    expect(await multi.acquire({ timeoutMs: 10_000 })).toBe(true);
    expect(await childrenOf(a, '/multi/none/a')).toHaveLength(1);
    expect(await childrenOf(a, '/multi/none/b')).toHaveLength(1);
    await multi.release();
    await expect(multi.release()).rejects.toBeInstanceOf(NotLockOwnerError);
  });

  it('releases in reverse order, and mixes lock kinds', async () => {
    const released: string[] = [];
    const tracked = (name: string, lock: InterProcessLock): InterProcessLock => ({
      acquire: (options) => lock.acquire(options),
      release: async () => {
        released.push(name);
        await lock.release();
      },
      isAcquiredInThisProcess: () => lock.isAcquiredInThisProcess(),
      [Symbol.asyncDispose]: () => lock[Symbol.asyncDispose](),
    });
    const multi = new InterProcessMultiLock([
      tracked('first', new InterProcessMutex(a, '/multi/order/1')),
      tracked('second', new InterProcessSemaphoreMutex(a, '/multi/order/2')),
      tracked('third', new InterProcessMutex(a, '/multi/order/3')),
    ]);
    expect(await multi.acquire()).toBe(true);
    await multi.release();
    expect(released).toEqual(['third', 'second', 'first']);
  });

  it('keeps mutual exclusion over overlapping lock sets under contention', async () => {
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      env.clients.map(async (client, i) => {
        // overlapping sets in one global order, so no deadlock: {x,y}, {y,z}, {x,z}
        const paths = [
          ['/multi/c/x', '/multi/c/y'],
          ['/multi/c/y', '/multi/c/z'],
          ['/multi/c/x', '/multi/c/z'],
        ][i] as string[];
        for (let round = 0; round < 3; round++) {
          await using multi = new InterProcessMultiLock(client, paths);
          expect(await multi.acquire({ timeoutMs: 60_000 })).toBe(true);
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside -= 1;
        }
      }),
    );
    // Any two of the sets overlap, so no two holders can ever be inside together.
    expect(maxInside).toBe(1);
  });

  it('refuses an empty list', () => {
    expect(() => new InterProcessMultiLock([])).toThrow(/at least one/);
  });
});
