/**
 * Curator's fixes since 5.4, each replayed on our recipe the way Curator's own test for it runs, against a real
 * server: LeaderLatch never has two leaders after a session expiry (CURATOR-696) and recovers when its path
 * went while it was disconnected (CURATOR-724); SharedCount keeps working as Curator's does since the version
 * became untrustworthy for ordering (CURATOR-688, the wrap itself is in src/shared/shared-value.test.ts); a
 * DistributedDoubleBarrier is not passed on a wake-up that changed nothing (apache/curator#1290); a
 * CuratorCache loads a node with more than 65,536 children (CURATOR-690).
 */
import { eventually } from '@zkwire/testing';
import { connect, op } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { DistributedDoubleBarrier } from '../src/barriers/distributed-double-barrier.js';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { childrenOf, deferred, settledFlag, type TestClient, trackReads, useRealServer } from './helpers.js';

const env = useRealServer({ clients: 2, proxiedClients: 2 });

/** The isLeader/notLeader events of a latch, in order. */
function leadershipEvents(latch: LeaderLatch): string[] {
  const events: string[] = [];
  latch.on('isLeader', () => events.push('isLeader'));
  latch.on('notLeader', () => events.push('notLeader'));
  return events;
}

/** Expires a client's session from outside: a second connection attaches to it and closes it. */
async function expireSession(victim: TestClient): Promise<void> {
  const thief = await connect({
    connectString: env.server.connectString,
    session: { id: victim.sessionId, password: victim.sessionPassword },
  });
  await thief.close();
}

async function ownerOf(client: TestClient, path: string): Promise<bigint | undefined> {
  return (await client.exists(path))?.ephemeralOwner;
}

describe('LeaderLatch (CURATOR-696, CURATOR-724)', () => {
  it('after the leader session expires the other latch leads, and the old leader never leads again beside it', async () => {
    const path = '/fixes/latch-696';
    // Curator's client makes a new session after an expiry; ours does with autoRecreateSession.
    const client0 = await connect({ connectString: env.server.connectString, autoRecreateSession: true });
    try {
      const latch0 = new LeaderLatch(client0, path, { id: 'id0' });
      const latch1 = new LeaderLatch(env.client(0), path, { id: 'id1' });
      const events0 = leadershipEvents(latch0);
      const events1 = leadershipEvents(latch1);
      await latch0.start();
      await latch1.start();
      expect(latch0.hasLeadership).toBe(true);
      expect(latch1.hasLeadership).toBe(false);

      const expiredSession = client0.sessionId;
      await expireSession(client0);

      expect(await latch1.await({ timeoutMs: 30_000 })).toBe(true);
      expect(events1).toEqual(['isLeader']);
      await eventually(() => events0.length >= 2);
      // The old leader comes back on a new session and stands behind id1 with a node of that session.
      await eventually(async () => (await latch1.getParticipants()).length === 2);
      expect(client0.sessionId).not.toBe(expiredSession);
      expect(await latch1.getParticipants()).toEqual([
        { id: 'id1', isLeader: true },
        { id: 'id0', isLeader: false },
      ]);
      expect(await ownerOf(env.client(1), latch0.ourPath as string)).toBe(client0.sessionId);
      expect(events0).toEqual(['isLeader', 'notLeader']);
      expect(latch0.hasLeadership).toBe(false);

      await latch1.close();
      expect(await latch0.await({ timeoutMs: 30_000 })).toBe(true);
      expect(events0).toEqual(['isLeader', 'notLeader', 'isLeader']);
      await latch0.close();
    } finally {
      await client0.close();
    }
  });

  it('both latches recover when the latch path is deleted while they are disconnected', async () => {
    const path = '/fixes/latch-724';
    const latch0 = new LeaderLatch(env.proxiedClient(0), path, { id: 'id0' });
    const latch1 = new LeaderLatch(env.proxiedClient(1), path, { id: 'id1' });
    await latch0.start();
    await latch1.start();
    expect(latch0.hasLeadership).toBe(true);

    const reconnected = [0, 1].map((index) => {
      const seen = deferred();
      env.proxiedClient(index).on('state', (state) => {
        if (state === 'reconnected') seen.resolve();
      });
      return seen.promise;
    });
    env.proxy.refuse(true);
    env.proxy.cut();
    const remover = env.client(1);
    for (const child of await childrenOf(remover, path)) await remover.delete(`${path}/${child}`);
    await remover.delete(path);
    env.proxy.refuse(false);
    await Promise.all(reconnected);

    await eventually(async () => (await childrenOf(remover, path)).length === 2);
    await eventually(() => latch0.hasLeadership !== latch1.hasLeadership);
    const leaders = [latch0, latch1].filter((latch) => latch.hasLeadership);
    expect(leaders).toHaveLength(1);
    expect((await latch0.getLeader()).id).toBe(leaders[0]?.id);
    await latch0.close();
    await latch1.close();
  });

  it("with lostOn: 'lost', a leader whose node was deleted while it was disconnected steps down on reconnecting", async () => {
    const path = '/fixes/latch-724-keep';
    const leader = new LeaderLatch(env.proxiedClient(0), path, { id: 'keeper', lostOn: 'lost' });
    const other = new LeaderLatch(env.client(0), path, { id: 'other' });
    const leaderEvents = leadershipEvents(leader);
    await leader.start();
    await other.start();
    expect(leader.hasLeadership).toBe(true);

    const reconnected = deferred();
    env.proxiedClient(0).on('state', (state) => {
      if (state === 'reconnected') reconnected.resolve();
    });
    env.proxy.refuse(true);
    env.proxy.cut();
    await env.client(1).delete(leader.ourPath as string);
    // The other latch sees its predecessor go and leads.
    expect(await other.await({ timeoutMs: 30_000 })).toBe(true);
    env.proxy.refuse(false);
    await reconnected.promise;

    await eventually(() => !leader.hasLeadership);
    expect(leaderEvents).toEqual(['isLeader', 'notLeader']);
    await eventually(async () => (await other.getParticipants()).length === 2);
    expect(await other.getParticipants()).toEqual([
      { id: 'other', isLeader: true },
      { id: 'keeper', isLeader: false },
    ]);
    expect(other.hasLeadership).toBe(true);
    await other.close();
    expect(await leader.await({ timeoutMs: 30_000 })).toBe(true);
    await leader.close();
  });
});

describe('SharedCount (CURATOR-688)', () => {
  it('takes every newer value by its zxid and compare-and-sets on the version the server last gave', async () => {
    const path = '/fixes/shared-count';
    await using count = new SharedCount(env.client(0), path, 0);
    await using other = new SharedCount(env.client(1), path, 0);
    await count.start();
    await other.start();
    for (let i = 1; i <= 5; i++) {
      const before = count.versionedValue;
      expect(await count.trySetCount(before, i)).toBe(true);
      const { stat } = await env.client(1).getData(path);
      expect(count.versionedValue).toEqual({ value: i, version: stat.version });
    }
    const stale = count.versionedValue;
    await other.setCount(100);
    await eventually(() => count.count === 100);
    expect(await count.trySetCount(stale, 7)).toBe(false);
    expect(await count.trySetCount(count.versionedValue, 7)).toBe(true);
    await eventually(() => other.count === 7);
  });
});

describe('DistributedDoubleBarrier (apache/curator#1290)', () => {
  it('a waiting member is not let in by wake-ups that changed nothing, and enters once the second member comes', async () => {
    const path = '/fixes/double-barrier';
    const { client, settled } = trackReads(env.client(0));
    const first = new DistributedDoubleBarrier(client, path, 2);
    const entering = first.enter({ timeoutMs: 60_000 });
    const flag = settledFlag(entering);
    const readyPath = `${path}/ready`;
    const watchedReadyReads = () =>
      settled.filter((read) => read.method === 'exists' && read.path === readyPath && read.watched).length;
    await eventually(() => watchedReadyReads() === 1 && settled.some((r) => r.method === 'getChildren'));

    // Ten wake-ups: each fires the member's watch on `ready` (created and deleted in one transaction, so
    // `ready` is gone again before the member re-reads); the member must re-check and keep waiting.
    const writer = env.client(1);
    for (let i = 0; i < 10; i++) {
      const readsBefore = watchedReadyReads();
      await writer.multi([op.create(readyPath, null), op.delete(readyPath)]);
      await eventually(() => watchedReadyReads() > readsBefore);
      expect(flag.settled).toBe(false);
    }
    expect(await childrenOf(writer, path)).toEqual([first.ourPath.slice(path.length + 1)]);

    const second = new DistributedDoubleBarrier(writer, path, 2);
    expect(await second.enter({ timeoutMs: 30_000 })).toBe(true);
    expect(await entering).toBe(true);
    await Promise.all([first.leave({ timeoutMs: 30_000 }), second.leave({ timeoutMs: 30_000 })]);
  });
});

describe('CuratorCache (CURATOR-690)', () => {
  it('loads a node with 70,000 children', { timeout: 300_000 }, async () => {
    const path = '/fixes/many-children';
    const childCount = 70_000;
    const batch = 1_000;
    const writer = env.client(1);
    await writer.create(path, null, { createParents: true });
    // The batches are pipelined: the server applies them one after another, with no round trip between.
    const batches: Promise<unknown>[] = [];
    for (let start = 0; start < childCount; start += batch) {
      const creates = Array.from({ length: Math.min(batch, childCount - start) }, (_, i) =>
        op.create(`${path}/n${start + i}`, null),
      );
      batches.push(writer.multi(creates));
    }
    await Promise.all(batches);
    await using cache = new CuratorCache(env.client(0), path);
    await cache.start();
    expect(await cache.awaitInitialized({ timeoutMs: 240_000 })).toBe(true);
    expect(cache.size).toBe(childCount + 1);
    expect(cache.children(path)).toHaveLength(childCount);
    expect(cache.get(`${path}/n69999`)).toBeDefined();
  });
});
