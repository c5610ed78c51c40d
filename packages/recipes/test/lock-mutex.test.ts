/** InterProcessMutex against a real ZooKeeper server. */
import { beforeAll, describe, expect, it } from 'vitest';
import { localAddressData } from '../src/internal-common/default-data.js';
import { InvalidRecipeArgumentError, NotLockOwnerError } from '../src/internal-common/recipe-errors.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { childrenOf, closeAll, openClients, type TestClient, useRealServer } from './helpers.js';

const PROTECTED_LOCK = /^_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-lock-\d{10}$/;

describe('InterProcessMutex', () => {
  const env = useRealServer({ clients: 2 });
  let a: TestClient;
  let b: TestClient;

  beforeAll(() => {
    [a, b] = [env.client(0), env.client(1)];
  });

  it('keeps mutual exclusion and FIFO order under contention (no lost update)', async () => {
    const contenders = await openClients(env.server.connectString, 5);
    const counterPath = '/mutex-contention-counter';
    await a.create(counterPath, '0', { mode: 'persistent' });
    const acquisitions: number[] = [];
    let inside = 0;
    let maxInside = 0;
    try {
      await Promise.all(
        contenders.map(async (client) => {
          const mutex = new InterProcessMutex(client, '/mutex/contention');
          for (let round = 0; round < 4; round++) {
            expect(await mutex.acquire()).toBe(true);
            inside += 1;
            maxInside = Math.max(maxInside, inside);
            acquisitions.push(mutex.fencingToken as number);
            const { data } = await client.getData(counterPath);
            await new Promise((resolve) => setTimeout(resolve, 2)); // a window for a lost update
            await client.setData(counterPath, String(Number(Buffer.from(data).toString()) + 1));
            inside -= 1;
            await mutex.release();
          }
        }),
      );
      expect(maxInside).toBe(1);
      expect(Buffer.from((await a.getData(counterPath)).data).toString()).toBe('20');
      // Fair: acquisitions come in node-creation order, so fencing tokens only grow.
      expect(acquisitions).toHaveLength(20);
      expect(acquisitions).toEqual([...acquisitions].sort((x, y) => x - y));
      expect(new Set(acquisitions).size).toBe(20);
    } finally {
      await closeAll(contenders);
    }
  });

  it("creates Curator's node: protected name, ephemeral, local address as data", async () => {
    const mutex = new InterProcessMutex(a, '/mutex/layout');
    await mutex.acquire();
    const [name] = await childrenOf(a, '/mutex/layout');
    expect(name).toMatch(PROTECTED_LOCK);
    expect(mutex.lockNodePath).toBe(`/mutex/layout/${name}`);
    const { data, stat } = await a.getData(mutex.lockNodePath as string);
    expect(stat.ephemeralOwner).toBe(a.sessionId);
    expect(Buffer.from(data).equals(Buffer.from(await localAddressData()))).toBe(true);
    expect(mutex.fencingToken).toBe(Number((name as string).slice(-10)));
    await mutex.release();
    expect(await childrenOf(a, '/mutex/layout')).toEqual([]);
  });

  it('is reentrant per object: acquire twice, release twice, one node', async () => {
    const mine = new InterProcessMutex(a, '/mutex/reentrant');
    const theirs = new InterProcessMutex(b, '/mutex/reentrant');
    expect(await mine.acquire()).toBe(true);
    expect(await mine.acquire()).toBe(true);
    expect(mine.holdCount).toBe(2);
    expect(await childrenOf(a, '/mutex/reentrant')).toHaveLength(1);
    await mine.release();
    expect(mine.isAcquiredInThisProcess()).toBe(true);
    expect(await theirs.acquire({ timeoutMs: 200 })).toBe(false);
    await mine.release();
    expect(await theirs.acquire({ timeoutMs: 10_000 })).toBe(true);
    await theirs.release();
  });

  it('shares one hold between concurrent acquires of the same object', async () => {
    const mutex = new InterProcessMutex(a, '/mutex/same-object');
    const results = await Promise.all([
      mutex.acquire(),
      mutex.acquire(),
      mutex.acquire({ timeoutMs: 5_000 }),
    ]);
    expect(results).toEqual([true, true, true]);
    expect(mutex.holdCount).toBe(3);
    expect(await childrenOf(a, '/mutex/same-object')).toHaveLength(1);
    await mutex[Symbol.asyncDispose]();
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(a, '/mutex/same-object')).toEqual([]);
  });

  it('reports "deleted" when someone else deletes the held node', async () => {
    const mutex = new InterProcessMutex(a, '/mutex/deleted');
    await mutex.acquire();
    const lost = new Promise((resolve) => mutex.once('lost', resolve));
    await b.delete(mutex.lockNodePath as string);
    expect(await lost).toEqual({ reason: 'deleted', path: mutex.lockNodePath });
    expect(mutex.lostSignal?.aborted).toBe(true);
    await mutex.release(); // the node is already gone: release still completes
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
  });

  it('refuses a release by a non-owner', async () => {
    const owner = new InterProcessMutex(a, '/mutex/owner');
    const other = new InterProcessMutex(a, '/mutex/owner');
    await owner.acquire();
    await expect(other.release()).rejects.toBeInstanceOf(NotLockOwnerError);
    await expect(other.release()).rejects.toMatchObject({ code: 'NOT_OWNER' });
    expect(await childrenOf(a, '/mutex/owner')).toHaveLength(1);
    await owner.release();
    await expect(owner.release()).rejects.toBeInstanceOf(NotLockOwnerError);
  });

  it('gives up on timeout and leaves no node behind', async () => {
    const holder = new InterProcessMutex(a, '/mutex/timeout');
    await holder.acquire();
    const waiter = new InterProcessMutex(b, '/mutex/timeout');
    expect(await waiter.acquire({ timeoutMs: 300 })).toBe(false);
    expect(waiter.isAcquiredInThisProcess()).toBe(false);
    expect(await childrenOf(a, '/mutex/timeout')).toEqual([(holder.lockNodePath as string).split('/').pop()]);
    await holder.release();
  });

  it('gives up on abort with the reason and leaves no node behind', async () => {
    const holder = new InterProcessMutex(a, '/mutex/abort');
    await holder.acquire();
    const waiter = new InterProcessMutex(b, '/mutex/abort');
    const controller = new AbortController();
    const waiting = waiter.acquire({ signal: controller.signal });
    // Abort once the waiter's node is there, so there is something to clean up.
    while ((await childrenOf(a, '/mutex/abort')).length < 2) await new Promise((r) => setTimeout(r, 10));
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(await childrenOf(a, '/mutex/abort')).toHaveLength(1);
    await holder.release();
  });

  it('leaves no node behind whatever moment the abort comes (during create, listing or waiting)', async () => {
    const holder = new InterProcessMutex(a, '/mutex/abort-anytime');
    await holder.acquire();
    for (const delayMs of [0, 1, 2, 3, 5, 8, 13, 21]) {
      const controller = new AbortController();
      const waiting = new InterProcessMutex(b, '/mutex/abort-anytime').acquire({ signal: controller.signal });
      setTimeout(() => controller.abort(new Error(`abort after ${delayMs} ms`)), delayMs);
      await expect(waiting).rejects.toThrow(`abort after ${delayMs} ms`);
      expect(await childrenOf(a, '/mutex/abort-anytime')).toHaveLength(1);
    }
    await holder.release();
  });

  it('lists participants in lock order, holder first', async () => {
    const first = new InterProcessMutex(a, '/mutex/participants');
    const second = new InterProcessMutex(b, '/mutex/participants');
    await first.acquire();
    const waiting = second.acquire();
    while ((await first.getParticipantNodes()).length < 2) await new Promise((r) => setTimeout(r, 10));
    const participants = await second.getParticipantNodes();
    expect(participants[0]).toBe(first.lockNodePath);
    await first.release();
    expect(await waiting).toBe(true);
    expect(await second.getParticipantNodes()).toEqual([second.lockNodePath]);
    await second.release();
  });

  it('releases on await using', async () => {
    {
      await using mutex = new InterProcessMutex(a, '/mutex/dispose');
      await mutex.acquire();
      await mutex.acquire();
      expect(await childrenOf(a, '/mutex/dispose')).toHaveLength(1);
    }
    expect(await childrenOf(a, '/mutex/dispose')).toEqual([]);
  });

  it('refuses bad arguments before sending anything', async () => {
    expect(() => new InterProcessMutex(a, 'relative')).toThrow(InvalidRecipeArgumentError);
    const mutex = new InterProcessMutex(a, '/mutex/bad-args');
    await expect(mutex.acquire({ timeoutMs: -5 })).rejects.toBeInstanceOf(InvalidRecipeArgumentError);
    expect(await a.exists('/mutex/bad-args')).toBeNull();
  });
});
