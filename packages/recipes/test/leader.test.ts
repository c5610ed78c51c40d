/** LeaderLatch and LeaderSelector against a real ZooKeeper server: contention, hand-over, timeouts, close. */
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { CloseMode } from '../src/leader/leader-latch-options.js';
import { LeaderSelector, type Leadership } from '../src/leader/leader-selector.js';
import { childrenOf, countWatchEvents, deferred, useRealServer, watchBarrier } from './helpers.js';

const LATCH_NODE = /^_c_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-latch-\d{10}$/;
const text = new TextDecoder();

describe('leader election (real server)', () => {
  const env = useRealServer({ clients: 4 });

  describe('LeaderLatch', () => {
    it('elects exactly one of several contenders and hands over in join order', async () => {
      const path = '/t/latch/contention';
      const latches = env.clients.map((client, i) => new LeaderLatch(client, path, { id: `node-${i}` }));
      for (const latch of latches) await latch.start(); // join in order 0, 1, 2, 3
      expect(latches.map((latch) => latch.hasLeadership)).toEqual([true, false, false, false]);

      const names = await childrenOf(env.client(0), path);
      expect(names).toHaveLength(4);
      for (const name of names) expect(name).toMatch(LATCH_NODE);
      const ourNode = (latches[2] as LeaderLatch).ourPath as string;
      expect(text.decode((await env.client(0).getData(ourNode)).data)).toBe('node-2');

      expect(await (latches[3] as LeaderLatch).getParticipants()).toEqual([
        { id: 'node-0', isLeader: true },
        { id: 'node-1', isLeader: false },
        { id: 'node-2', isLeader: false },
        { id: 'node-3', isLeader: false },
      ]);
      const leaders: number[] = [];
      for (let i = 0; i < latches.length; i++) {
        const latch = latches[i] as LeaderLatch;
        expect(await latch.await({ timeoutMs: 20_000 })).toBe(true);
        expect(latches.filter((other) => other.hasLeadership)).toEqual([latch]);
        expect(await latch.getLeader()).toEqual({ id: `node-${i}`, isLeader: true });
        leaders.push(i);
        await latch.close();
      }
      expect(leaders).toEqual([0, 1, 2, 3]);
      expect(await childrenOf(env.client(0), path)).toEqual([]);
      expect(await (latches[0] as LeaderLatch).getLeader()).toEqual({ id: '', isLeader: false });
    });

    it('gives each term a fencing token (its node sequence) that grows from leader to leader', async () => {
      const path = '/t/latch/fencing';
      const [first, second] = [0, 1].map((i) => new LeaderLatch(env.client(i), path, { id: `f${i}` })) as [
        LeaderLatch,
        LeaderLatch,
      ];
      expect(first.fencingToken).toBeUndefined();
      await first.start();
      await second.start();
      const firstToken = first.fencingToken as number;
      expect(firstToken).toBe(Number((first.ourPath as string).slice(-10)));
      expect(second.fencingToken).toBeUndefined(); // a follower holds no token
      await first.close();
      expect(first.fencingToken).toBeUndefined();
      expect(await second.await({ timeoutMs: 20_000 })).toBe(true);
      const secondToken = second.fencingToken as number;
      expect(secondToken).toBe(Number((second.ourPath as string).slice(-10)));
      expect(secondToken).toBeGreaterThan(firstToken);
      // The first comes back behind: its new term, once it leads again, has a higher token still.
      const again = new LeaderLatch(env.client(0), path, { id: 'f0-again' });
      await again.start();
      await second.close();
      expect(await again.await({ timeoutMs: 20_000 })).toBe(true);
      expect(again.fencingToken).toBeGreaterThan(secondToken);
      await again.close();
    });

    it('wakes only the next in line when the leader leaves (no herd)', async () => {
      const path = '/t/latch/herd';
      const counted = env.clients.map((client) => countWatchEvents(client));
      const fired = () => counted.reduce((sum, c) => sum + c.fired(), 0);
      const latches = counted.map(({ client }, i) => new LeaderLatch(client, path, { id: `h${i}` }));
      for (const latch of latches) await latch.start();
      expect(fired()).toBe(0);
      await (latches[0] as LeaderLatch).close();
      expect(await (latches[1] as LeaderLatch).await({ timeoutMs: 20_000 })).toBe(true);
      // A later write seen by every client: any wake-up caused by the close has arrived before it.
      await watchBarrier(env.clients, env.client(0), '/t/latch/herd-barrier');
      expect(fired()).toBe(1);
      expect(latches.slice(2).map((latch) => latch.hasLeadership)).toEqual([false, false]);
      for (const latch of latches) await latch.close();
    });

    it('answers await with false on timeout and rejects it on abort, while another leads', async () => {
      const path = '/t/latch/await';
      await using leader = new LeaderLatch(env.client(0), path, { id: 'a' });
      await using follower = new LeaderLatch(env.client(1), path, { id: 'b' });
      await leader.start();
      await follower.start();
      expect(await follower.await({ timeoutMs: 200 })).toBe(false);
      const controller = new AbortController();
      const waiting = follower.await({ signal: controller.signal });
      controller.abort(new Error('gave up'));
      await expect(waiting).rejects.toThrow('gave up');
      await expect(follower.await({ timeoutMs: Number.NaN })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(follower.hasLeadership).toBe(false);
    });

    it('emits isLeader/notLeader, aborts the leadership signal on close, and honours the close modes', async () => {
      const path = '/t/latch/events';
      const notify = new LeaderLatch(env.client(0), path, {
        id: 'n',
        closeMode: CloseMode.NOTIFY_LEADER,
      });
      const events: string[] = [];
      notify.on('isLeader', () => events.push('isLeader'));
      notify.on('notLeader', () => events.push('notLeader'));
      await notify.start();
      expect(events).toEqual(['isLeader']);
      const signal = notify.leadershipSignal as AbortSignal;
      expect(signal.aborted).toBe(false);
      await notify.close();
      expect(events).toEqual(['isLeader', 'notLeader']);
      expect(signal.aborted).toBe(true);

      const silent = new LeaderLatch(env.client(0), path, { id: 's' });
      const silentEvents: string[] = [];
      silent.on('notLeader', () => silentEvents.push('notLeader'));
      await silent.start();
      expect(silent.hasLeadership).toBe(true);
      await silent.close();
      expect(silentEvents).toEqual([]);
      expect(silent.state).toBe('closed');
      await silent.close(); // idempotent
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });

    it('closes through await using and leaves no node', async () => {
      const path = '/t/latch/dispose';
      {
        await using latch = new LeaderLatch(env.client(0), path);
        await latch.start();
        expect(await childrenOf(env.client(1), path)).toHaveLength(1);
        expect((await env.client(1).getData(latch.ourPath as string)).data.length).toBe(0); // id '' = 0 bytes
      }
      expect(await childrenOf(env.client(1), path)).toEqual([]);
    });

    it("keeps watching when the predecessor's data changes, and still takes over when it goes", async () => {
      const path = '/t/latch/data-change';
      const first = new LeaderLatch(env.client(0), path, { id: 'first' });
      const second = new LeaderLatch(env.client(1), path, { id: 'second' });
      await first.start();
      await second.start();
      await env.client(2).setData(first.ourPath as string, 'touched'); // fires the follower's watch
      expect(await second.await({ timeoutMs: 200 })).toBe(false);
      await first.close();
      expect(await second.await({ timeoutMs: 20_000 })).toBe(true);
      await second.close();
    });

    it('wakes a waiting await when it becomes leader', async () => {
      const path = '/t/latch/wake';
      const first = new LeaderLatch(env.client(0), path, { id: 'first' });
      const second = new LeaderLatch(env.client(1), path, { id: 'second' });
      await first.start();
      await second.start();
      const waiting = second.await();
      await first.close();
      expect(await waiting).toBe(true);
      await second.close();
    });
  });

  describe('LeaderSelector', () => {
    it('runs takeLeadership on one contender at a time and requeues automatically', async () => {
      const path = '/t/selector/contention';
      let running = 0;
      let maxRunning = 0;
      const terms: string[] = [];
      const done = deferred();
      const selectors = env.clients.map(
        (client, i) =>
          new LeaderSelector(
            client,
            path,
            async ({ signal }: Leadership) => {
              running += 1;
              maxRunning = Math.max(maxRunning, running);
              terms.push(`s${i}`);
              await new Promise((resolve) => setTimeout(resolve, 20));
              running -= 1;
              if (terms.length >= 12) done.resolve();
              signal.throwIfAborted();
            },
            { id: `s${i}`, autoRequeue: true },
          ),
      );
      for (const selector of selectors) selector.start();
      await done.promise;
      await Promise.all(selectors.map((selector) => selector.close()));
      expect(maxRunning).toBe(1);
      for (let i = 0; i < selectors.length; i++) expect(terms).toContain(`s${i}`); // everyone led at least once
      expect(await childrenOf(env.client(0), path)).toEqual([]);
    });

    it('aborts the leader through interruptLeadership, then the next contender leads', async () => {
      const path = '/t/selector/interrupt';
      const started = deferred<AbortSignal>();
      const secondLeads = deferred();
      const first = new LeaderSelector(
        env.client(0),
        path,
        ({ signal }) => {
          started.resolve(signal);
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
        { id: 'first' },
      );
      const second = new LeaderSelector(env.client(1), path, async () => secondLeads.resolve(), {
        id: 'second',
      });
      first.start();
      const signal = await started.promise;
      second.start();
      await eventually(async () => (await second.getParticipants()).length === 2);
      expect(await second.getLeader()).toEqual({ id: 'first', isLeader: true });
      expect(first.hasLeadership).toBe(true);
      first.interruptLeadership();
      expect(signal.aborted).toBe(true);
      await secondLeads.promise;
      await first.close();
      await second.close();
    });

    it('writes the local address when it has no id, and waits for takeLeadership to end on close', async () => {
      const path = '/t/selector/close';
      let ended = false;
      const leading = deferred();
      const selector = new LeaderSelector(env.client(0), path, async ({ signal }) => {
        leading.resolve();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        ended = true;
      });
      selector.start();
      await leading.promise;
      const [node] = await childrenOf(env.client(1), path);
      expect(node).toMatch(/-lock-\d{10}$/);
      expect(text.decode((await env.client(1).getData(`${path}/${node}`)).data)).toMatch(/^[0-9a-f.:]+$/);
      await selector.close();
      expect(ended).toBe(true);
      expect(await childrenOf(env.client(1), path)).toEqual([]);
    });

    it('refuses bad arguments before sending anything', () => {
      expect(() => new LeaderSelector(env.client(0), '/t/selector/x', 'no' as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() => new LeaderLatch(env.client(0), 'x/y')).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });
});
