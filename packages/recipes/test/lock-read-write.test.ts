/** InterProcessReadWriteLock against a real server. */
import { eventually } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { LockUpgradeError } from '../src/internal-common/recipe-errors.js';
import { InterProcessReadWriteLock } from '../src/locks/interprocess-read-write-lock.js';
import { childrenOf, type TestClient, useRealServer } from './helpers.js';

describe('InterProcessReadWriteLock', () => {
  const env = useRealServer({ clients: 3 });
  let a: TestClient;
  let b: TestClient;
  let c: TestClient;

  beforeAll(() => {
    [a, b, c] = [env.client(0), env.client(1), env.client(2)];
  });

  it('lets readers share and keeps writers out until every reader left', async () => {
    const path = '/rw/share';
    const r1 = new InterProcessReadWriteLock(a, path).readLock();
    const r2 = new InterProcessReadWriteLock(b, path).readLock();
    const w = new InterProcessReadWriteLock(c, path).writeLock();
    expect(await r1.acquire({ timeoutMs: 10_000 })).toBe(true);
    expect(await r2.acquire({ timeoutMs: 10_000 })).toBe(true);
    const names = await childrenOf(a, path);
    expect(names.every((name) => /^_c_[0-9a-f-]{36}-__READ__\d{10}$/.test(name))).toBe(true);
    expect(await w.acquire({ timeoutMs: 300 })).toBe(false);
    expect(await childrenOf(a, path)).toHaveLength(2); // the writer left nothing behind
    const writing = w.acquire({ timeoutMs: 30_000 });
    await r1.release();
    await r2.release();
    expect(await writing).toBe(true);
    expect((w.lockNodePath as string).split('/').pop()).toMatch(/^_c_[0-9a-f-]{36}-__WRIT__\d{10}$/);
    await w.release();
  });

  it('makes a reader behind a writer wait, and writers exclude each other', async () => {
    const path = '/rw/exclude';
    const w1 = new InterProcessReadWriteLock(a, path).writeLock();
    const w2 = new InterProcessReadWriteLock(b, path).writeLock();
    const r = new InterProcessReadWriteLock(c, path).readLock();
    await w1.acquire();
    expect(await w2.acquire({ timeoutMs: 200 })).toBe(false);
    expect(await r.acquire({ timeoutMs: 200 })).toBe(false);
    const reading = r.acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, path)).length === 2);
    const writing = w2.acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, path)).length === 3);
    await w1.release();
    // FIFO: the reader queued first, so it holds and the second writer still waits.
    expect(await reading).toBe(true);
    expect(w2.isAcquiredInThisProcess()).toBe(false);
    await r.release();
    expect(await writing).toBe(true);
    await w2.release();
  });

  it('downgrades as Curator 5.5+: the read node takes the write sequence, so a queued writer cannot overtake', async () => {
    const path = '/rw/downgrade';
    const lock = new InterProcessReadWriteLock(a, path);
    const otherWriter = new InterProcessReadWriteLock(b, path).writeLock();
    const otherReader = new InterProcessReadWriteLock(c, path).readLock();
    await lock.writeLock().acquire();
    const writing = otherWriter.acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, path)).length === 2);

    expect(await lock.readLock().acquire({ timeoutMs: 1_000 })).toBe(true);
    const writeSequence = (lock.writeLock().lockNodePath as string).slice(-10);
    const readNode = lock.readLock().lockNodePath as string;
    expect(readNode.split('/').pop()).toMatch(new RegExp(`^_c_[0-9a-f-]{36}-__READ__${writeSequence}$`));
    const { stat } = await a.getData(readNode);
    expect(stat.ephemeralOwner).toBe(a.sessionId);
    expect(lock.readLock().fencingToken).toBe(Number(writeSequence));

    await lock.writeLock().release();
    // Still read-locked by us: the queued writer must keep waiting, a new reader queues behind that writer.
    expect(await otherReader.acquire({ timeoutMs: 300 })).toBe(false);
    expect(otherWriter.isAcquiredInThisProcess()).toBe(false);
    await lock.readLock().release();
    expect(await writing).toBe(true);
    await otherWriter.release();
  });

  it('refuses an upgrade with a clear error instead of deadlocking, sending nothing', async () => {
    const path = '/rw/upgrade';
    const lock = new InterProcessReadWriteLock(a, path);
    await lock.readLock().acquire();
    await expect(lock.writeLock().acquire({ timeoutMs: 10_000 })).rejects.toBeInstanceOf(LockUpgradeError);
    await expect(lock.writeLock().acquire()).rejects.toMatchObject({ code: 'UPGRADE_REFUSED' });
    expect(await childrenOf(a, path)).toHaveLength(1);
    await lock.readLock().release();
    expect(await lock.writeLock().acquire({ timeoutMs: 10_000 })).toBe(true);
    await lock.writeLock().release();
  });

  it('is reentrant per half and released on await using', async () => {
    const path = '/rw/reentrant';
    {
      await using lock = new InterProcessReadWriteLock(a, path);
      await lock.readLock().acquire();
      await lock.readLock().acquire();
      expect(lock.readLock().holdCount).toBe(2);
      expect(await childrenOf(a, path)).toHaveLength(1);
    }
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('keeps writers exclusive under mixed reader and writer contention', async () => {
    const path = '/rw/contention';
    let writers = 0;
    let readers = 0;
    let violations = 0;
    await Promise.all(
      env.clients.flatMap((client, i) => {
        return [0, 1, 2].map(async (round) => {
          const isWriter = (i + round) % 2 === 0;
          // one lock object per task, so reentrancy does not merge two tasks' holds
          const rw = new InterProcessReadWriteLock(client, path);
          const own = isWriter ? rw.writeLock() : rw.readLock();
          expect(await own.acquire({ timeoutMs: 60_000 })).toBe(true);
          if (isWriter) writers += 1;
          else readers += 1;
          if (writers > 1 || (writers === 1 && readers > 0)) violations += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (isWriter) writers -= 1;
          else readers -= 1;
          await own.release();
        });
      }),
    );
    expect(violations).toBe(0);
    expect(await childrenOf(a, path)).toEqual([]);
  });
});
