/**
 * A listener of the application that throws changes nothing in the recipe (start resolves, leadership is
 * kept, the cache stays current, the other listeners run): it is reported as the recipe's 'error', or, with
 * nobody listening, as a process warning with a stable code. A background failure nobody hears is one
 * process warning per cause, not silence. Real server.
 */
import { eventually } from '@zkwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { PathChildrenCache } from '../src/cache/path-children-cache.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { type TestClient, useRealServer } from './helpers.js';

/** Process warnings seen while a test runs (every test starts with none). */
const warnings: (Error & { code?: string })[] = [];
const onWarning = (warning: Error & { code?: string }) => warnings.push(warning);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

function warningsWith(code: string, text: string): (Error & { code?: string })[] {
  return warnings.filter((warning) => warning.code === code && warning.message.includes(text));
}

/**
 * Resolves once every warning emitted before the call was delivered: warnings are delivered in the order
 * they were emitted, so one emitted now arrives after all of them.
 */
async function warningsDelivered(): Promise<void> {
  const marker = `marker ${Math.random()}`;
  process.emitWarning(marker, { code: 'TEST_MARKER' });
  await eventually(() => warnings.some((warning) => warning.message === marker));
}

/** The client, with a count of the creates the server refused (to know a background retry has run). */
function countingRefusedCreates(client: TestClient): { client: TestClient; refused: () => number } {
  let refused = 0;
  const counting = new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'create') {
        return (...args: Parameters<TestClient['create']>) =>
          target.create(...args).catch((error: unknown) => {
            refused += 1;
            throw error;
          });
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: counting, refused: () => refused };
}

const boom = (what: string) => () => {
  throw new Error(`${what} listener bug`);
};

describe('errors from listeners and background work (real server)', () => {
  const env = useRealServer({ clients: 2 });

  describe('LeaderLatch whose isLeader listener throws', () => {
    it('starts, keeps leadership, runs the other listeners and reports the error as error', async () => {
      const latch = new LeaderLatch(env.client(0), '/t/listener-errors/latch-heard');
      const errors: unknown[] = [];
      let otherListenerRan = false;
      latch.on('error', (error) => errors.push(error));
      latch.on('isLeader', boom('isLeader'));
      latch.on('isLeader', () => {
        otherListenerRan = true;
      });
      try {
        await expect(latch.start()).resolves.toBeUndefined();
        expect(latch.hasLeadership).toBe(true);
        expect(otherListenerRan).toBe(true);
        expect(errors).toEqual([new Error('isLeader listener bug')]);
        expect(await latch.getLeader()).toEqual({ id: '', isLeader: true });
      } finally {
        await latch.close();
      }
    });

    it('with no error listener: a process warning ZKWIRE_LISTENER_ERROR, and leadership kept', async () => {
      const path = '/t/listener-errors/latch-unheard';
      const latch = new LeaderLatch(env.client(0), path);
      latch.on('isLeader', boom('isLeader'));
      try {
        await expect(latch.start()).resolves.toBeUndefined();
        expect(latch.hasLeadership).toBe(true);
        await warningsDelivered();
        const reported = warningsWith('ZKWIRE_LISTENER_ERROR', `LeaderLatch ${path}`);
        expect(reported).toHaveLength(1);
        expect(reported[0]?.message).toContain("'isLeader' listener threw: isLeader listener bug");
      } finally {
        await latch.close();
      }
    });

    it('an error listener that throws too becomes a warning, not another error event', async () => {
      const path = '/t/listener-errors/latch-error-listener';
      const latch = new LeaderLatch(env.client(0), path);
      let errorCalls = 0;
      latch.on('isLeader', boom('isLeader'));
      latch.on('error', () => {
        errorCalls += 1;
        throw new Error('error listener bug');
      });
      try {
        await expect(latch.start()).resolves.toBeUndefined();
        expect(latch.hasLeadership).toBe(true);
        await warningsDelivered();
        expect(errorCalls).toBe(1);
        const reported = warningsWith('ZKWIRE_LISTENER_ERROR', `LeaderLatch ${path}`);
        expect(reported.map((warning) => warning.message)).toEqual([
          `LeaderLatch ${path}: 'error' listener threw: error listener bug`,
        ]);
      } finally {
        await latch.close();
      }
    });
  });

  it("a lock whose lost listener throws: the error is the lock's 'error', the other lost listeners run", async () => {
    const mutex = new InterProcessMutex(env.client(0), '/t/listener-errors/mutex');
    const errors: unknown[] = [];
    const lost: string[] = [];
    mutex.on('error', (error) => errors.push(error));
    mutex.on('lost', boom('lost'));
    mutex.on('lost', (event) => lost.push(event.reason));
    expect(await mutex.acquire({ timeoutMs: 20_000 })).toBe(true);
    const node = mutex.lockNodePath as string;
    // Someone else deletes our lock node: the hold is reported lost (from the node's watch).
    await env.client(1).delete(node);
    await eventually(() => lost.length === 1);
    expect(lost).toEqual(['deleted']);
    expect(mutex.lostSignal?.aborted).toBe(true);
    expect(errors).toEqual([new Error('lost listener bug')]);
    await mutex.release().catch(() => {});
  });

  it('a cache whose listener throws keeps its state and keeps telling every listener', async () => {
    const zk = env.client(0);
    const root = '/t/listener-errors/cache';
    await zk.create(root, 'r', { createParents: 'container' });
    const cache = new CuratorCache(zk, root);
    const errors: unknown[] = [];
    const created: string[] = [];
    cache.on('error', (error) => errors.push(error));
    cache.on('created', boom('created'));
    cache.on('created', (data) => created.push(data.path));
    try {
      await cache.start();
      expect(await cache.awaitInitialized({ timeoutMs: 20_000 })).toBe(true);
      await zk.create(`${root}/a`, 'a');
      await eventually(() => created.includes(`${root}/a`));
      await zk.create(`${root}/b`, 'b');
      await eventually(() => created.includes(`${root}/b`));
      expect(created).toEqual([root, `${root}/a`, `${root}/b`]);
      expect(errors).toEqual([0, 1, 2].map(() => new Error('created listener bug')));
      expect(cache.get(`${root}/b`)?.data).toEqual(new TextEncoder().encode('b'));
      expect(cache.size).toBe(3);
    } finally {
      await cache.close();
    }
  });

  it('a PathChildrenCache listener that throws, unheard: one warning per cause, later events still come', async () => {
    const zk = env.client(0);
    const root = '/t/listener-errors/children';
    await zk.create(root, null, { createParents: 'container' });
    const cache = new PathChildrenCache(zk, root);
    const added: string[] = [];
    cache.on('childAdded', boom('childAdded'));
    cache.on('childAdded', (data) => added.push(data.path));
    try {
      await cache.start();
      expect(await cache.awaitInitialized({ timeoutMs: 20_000 })).toBe(true);
      await zk.create(`${root}/a`, 'a');
      await zk.create(`${root}/b`, 'b');
      await eventually(() => added.length === 2);
      expect(added).toEqual([`${root}/a`, `${root}/b`]);
      await warningsDelivered();
      const reported = warningsWith('ZKWIRE_LISTENER_ERROR', `PathChildrenCache ${root}`);
      expect(reported.map((warning) => warning.message)).toEqual([
        `PathChildrenCache ${root}: 'childAdded' listener threw: childAdded listener bug`,
      ]);
    } finally {
      await cache.close();
    }
  });

  it('SharedCount: a throwing change listener fails neither start nor the write that changed the count', async () => {
    const count = new SharedCount(env.client(0), '/t/listener-errors/count', 0);
    const errors: unknown[] = [];
    const seen: number[] = [];
    count.on('error', (error) => errors.push(error));
    count.on('change', boom('change'));
    count.on('change', (value) => seen.push(value));
    try {
      await expect(count.start()).resolves.toBeUndefined();
      await expect(count.setCount(7)).resolves.toBeUndefined();
      expect(count.count).toBe(7);
      expect(seen).toEqual([0, 7]);
      expect(errors).toEqual([0, 7].map(() => new Error('change listener bug')));
    } finally {
      await count.close();
    }
  });

  describe('a PersistentNode that can never be created, with no logger and no error listener', () => {
    it('gives exactly one process warning, however often it tries again', async () => {
      const [owner, user] = [env.client(0), env.client(1)];
      const parent = '/t/listener-errors/ephemeral-parent';
      await owner.create('/t/listener-errors', null, { createParents: 'container' }).catch(() => {});
      await owner.create(parent, null, { mode: 'ephemeral' });
      const counted = countingRefusedCreates(user);
      const path = `${parent}/child`;
      const node = new PersistentNode(counted.client, path, { mode: 'persistent', data: 'x' });
      try {
        node.start();
        expect(await node.waitForInitialCreate({ timeoutMs: 2_000 })).toBe(false);
        await eventually(() => warningsWith('ZKWIRE_BACKGROUND_ERROR', `PersistentNode ${path}`).length > 0);
        // setData restarts the stalled loop: the create is refused again, for the same cause.
        const refusedBefore = counted.refused();
        void node.setData('y');
        await eventually(() => counted.refused() > refusedBefore);
        await warningsDelivered();
        const reported = warningsWith('ZKWIRE_BACKGROUND_ERROR', `PersistentNode ${path}`);
        expect(reported).toHaveLength(1);
        expect(reported[0]?.message).toMatch(/NOCHILDRENFOREPHEMERALS/);
      } finally {
        await node.close();
        await owner.delete(parent).catch(() => {});
      }
    });
  });
});
