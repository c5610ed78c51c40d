/** DistributedBarrier and DistributedDoubleBarrier against a real ZooKeeper server. */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { DistributedBarrier } from '../src/barriers/distributed-barrier.js';
import { DistributedDoubleBarrier } from '../src/barriers/distributed-double-barrier.js';
import { RecipeConnectionLostError } from '../src/internal-common/recipe-errors.js';
import {
  childrenOf,
  openClient,
  settledFlag,
  type TestClient,
  trackReads,
  useRealServer,
  watchBarrier,
} from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('barriers (real server)', () => {
  const env = useRealServer({ clients: 4, faultProxy: true });

  describe('DistributedBarrier', () => {
    it('blocks waiters while the node exists and releases all of them when it is removed', async () => {
      const [a, b, c] = env.clients as [TestClient, TestClient, TestClient];
      const setter = new DistributedBarrier(a, '/t/barrier/one');
      await setter.setBarrier();
      await setter.setBarrier(); // NodeExists is ignored
      expect((await a.getData('/t/barrier/one')).data.length).toBeGreaterThan(0); // Curator writes its address
      const tracked = [b, c].map((client) => trackReads(client));
      const waits = tracked.map(({ client }) =>
        new DistributedBarrier(client, '/t/barrier/one').waitOnBarrier(),
      );
      const done = settledFlag(Promise.all(waits));
      // Each waiter has read the barrier node (arming its watch); a later write seen by both, and a round trip
      // after it, leave any wrong early return time to show.
      await eventually(() =>
        tracked.every(({ settled }) => settled.some((r) => r.path === '/t/barrier/one' && r.watched)),
      );
      await watchBarrier([b, c], a, '/t/barrier/one-check');
      expect(done.settled).toBe(false);
      await setter.removeBarrier();
      expect(await Promise.all(waits)).toEqual([true, true]);
      await setter.removeBarrier(); // NoNode is ignored
    });

    it('returns true at once when there is no barrier, and false on timeout while it stands', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      expect(await new DistributedBarrier(b, '/t/barrier/none').waitOnBarrier({ timeoutMs: 10 })).toBe(true);
      const setter = new DistributedBarrier(a, '/t/barrier/two');
      await setter.setBarrier();
      expect(await new DistributedBarrier(b, '/t/barrier/two').waitOnBarrier({ timeoutMs: 200 })).toBe(false);
      await setter.removeBarrier();
    });

    it('rejects with the abort reason, and ends a wait on dispose', async () => {
      const [a, b] = env.clients as [TestClient, TestClient];
      const setter = new DistributedBarrier(a, '/t/barrier/three');
      await setter.setBarrier();
      const controller = new AbortController();
      const waiting = new DistributedBarrier(b, '/t/barrier/three').waitOnBarrier({
        signal: controller.signal,
      });
      controller.abort(new Error('stop waiting'));
      await expect(waiting).rejects.toThrow('stop waiting');
      const disposed = new DistributedBarrier(b, '/t/barrier/three');
      const pending = disposed.waitOnBarrier();
      await disposed[Symbol.asyncDispose]();
      await expect(pending).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      await setter.removeBarrier();
    });

    it('refuses bad arguments before sending anything', async () => {
      const [a] = env.clients as [TestClient];
      expect(() => new DistributedBarrier(a, 'relative')).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      await expect(
        new DistributedBarrier(a, '/t/barrier/x').waitOnBarrier({ timeoutMs: -1 }),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(await childrenOf(a, '/t/barrier')).not.toContain('x');
    });
  });

  describe('DistributedDoubleBarrier', () => {
    it('lets nobody in until all members entered, then lets nobody out until all left', async () => {
      const path = '/t/dbarrier/all';
      const tracked = env.clients.map((client) => trackReads(client));
      const members = tracked.map(({ client }) => new DistributedDoubleBarrier(client, path, 4));
      const firstThree = members.slice(0, 3).map((member) => member.enter());
      const entered = settledFlag(Promise.all(firstThree));
      // Each of the three has counted the members (the read it decides on), then a barrier write and round trip.
      await eventually(() =>
        tracked
          .slice(0, 3)
          .every(({ settled }) => settled.some((r) => r.method === 'getChildren' && r.path === path)),
      );
      await watchBarrier(env.clients.slice(0, 3), env.client(3), `${path}-check-enter`);
      expect(entered.settled).toBe(false);
      const children = await childrenOf(env.client(0), path);
      expect(children.filter((name) => UUID.test(name))).toHaveLength(3);
      expect(children).not.toContain('ready');
      const all = [...firstThree, (members[3] as DistributedDoubleBarrier).enter()];
      expect(await Promise.all(all)).toEqual([true, true, true, true]);
      expect(await childrenOf(env.client(0), path)).toContain('ready');

      const watchesBefore = tracked.map(({ settled }) => settled.filter((r) => r.watched).length);
      const leaving = members.slice(0, 3).map((member) => member.leave());
      const left = settledFlag(Promise.all(leaving));
      // Each of the three has armed the watch it waits on (a member node), then a barrier write and round trip.
      await eventually(() =>
        tracked
          .slice(0, 3)
          .every(({ settled }, i) => settled.filter((r) => r.watched).length > (watchesBefore[i] as number)),
      );
      await watchBarrier(env.clients.slice(0, 3), env.client(3), `${path}-check-leave`);
      expect(left.settled).toBe(false);
      const last = (members[3] as DistributedDoubleBarrier).leave();
      expect(await Promise.all([...leaving, last])).toEqual([true, true, true, true]);
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });

    it('gives up entering on timeout and removes its member node', async () => {
      const path = '/t/dbarrier/timeout';
      const member = new DistributedDoubleBarrier(env.client(0), path, 2);
      expect(await member.enter({ timeoutMs: 200 })).toBe(false);
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });

    it('times out leaving while another member stays, and completes later', async () => {
      const path = '/t/dbarrier/leave-timeout';
      const [a, b] = [env.client(0), env.client(1)].map(
        (client) => new DistributedDoubleBarrier(client, path, 2),
      ) as [DistributedDoubleBarrier, DistributedDoubleBarrier];
      expect(await Promise.all([a.enter(), b.enter()])).toEqual([true, true]);
      const lowestFirst = [a, b].sort((x, y) => (x.ourPath < y.ourPath ? -1 : 1));
      const [low, high] = lowestFirst as [DistributedDoubleBarrier, DistributedDoubleBarrier];
      // The lowest member waits for the highest to go; alone it times out and its node stays.
      expect(await low.leave({ timeoutMs: 200 })).toBe(false);
      expect(await childrenOf(env.client(0), path)).toContain(low.ourPath.split('/').pop());
      expect(await Promise.all([low.leave(), high.leave()])).toEqual([true, true]);
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });

    it('rejects a waiting enter with CONNECTION_LOST when its connection drops, and removes its node', async () => {
      const path = '/t/dbarrier/connection';
      const viaProxy = await openClient(env.proxy.connectString);
      try {
        const entering = new DistributedDoubleBarrier(viaProxy, path, 2).enter({ timeoutMs: 30_000 });
        await eventually(async () => (await childrenOf(env.client(0), path)).length === 1);
        env.proxy.cut(); // the client reconnects within its session; Curator would throw ConnectionLoss here
        await expect(entering).rejects.toBeInstanceOf(RecipeConnectionLostError);
        await expect(entering).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
        await eventually(async () => (await childrenOf(env.client(0), path)).length === 0);
      } finally {
        await viaProxy.close();
      }
    });

    it('rejects with CONNECTION_LOST, not the ConnectionLoss of a call, when the drop comes while a call is in flight', async () => {
      const path = '/t/dbarrier/connection-in-flight';
      const viaProxy = await openClient(env.proxy.connectString);
      try {
        env.proxy.pause(); // enter's first call (exists of ready) goes out and waits in the proxy
        const entering = new DistributedDoubleBarrier(viaProxy, path, 2).enter({ timeoutMs: 30_000 });
        await new Promise((resolve) => setTimeout(resolve, 200));
        env.proxy.cut();
        const error = await entering.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(RecipeConnectionLostError);
        expect(error).toMatchObject({ code: 'CONNECTION_LOST', cause: { code: 'CONNECTIONLOSS' } });
        expect(await childrenOf(env.client(0), path)).toEqual([]);
      } finally {
        env.proxy.resume();
        await viaProxy.close();
      }
    });

    it('aborts an enter through its signal without leaving a node', async () => {
      const path = '/t/dbarrier/abort';
      const controller = new AbortController();
      const entering = new DistributedDoubleBarrier(env.client(0), path, 3).enter({
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      controller.abort(new Error('no more'));
      await expect(entering).rejects.toThrow('no more');
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });
  });
});
