/**
 * Where sessions matter (issue 5): a real 3-server ensemble whose leader is killed while a lock is held and
 * while a LeaderLatch leads. The clients' connections drop during the re-election, but their sessions survive
 * (30 s timeout): holders keep their nodes, "lost" is raised per the recipe's `lostOn` policy, and the
 * waiters get the lock or the leadership in order afterwards.
 */
import { ensembleFixture, eventually } from '@zkwire/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LostEvent } from '../src/internal-common/hold-monitor.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { openClient, type TestClient } from './helpers.js';

const fixture = ensembleFixture({ size: 3 });

beforeAll(fixture.start, 120_000);
afterAll(fixture.stop);

/** A client on every member, recording its connection states. */
async function ensembleClient(): Promise<{ client: TestClient; states: string[] }> {
  const client = await openClient(fixture.ensemble.connectString);
  fixture.track(client);
  const states: string[] = [];
  client.on('state', (state) => states.push(state));
  return { client, states };
}

/** Kills the leader and waits until the survivors elect a new one; returns the killed member's index. */
async function killLeader(): Promise<number> {
  const leader = await fixture.ensemble.leader();
  await fixture.ensemble.kill(leader);
  await fixture.ensemble.waitForQuorum();
  return leader;
}

/** The connection dropped and came back to the same session (not 'lost'). */
async function expectSameSessionAfterDrop(client: TestClient, states: string[], sessionId: bigint) {
  await eventually(() => states.includes('reconnected') && client.state === 'connected', {
    timeoutMs: 30_000,
  });
  expect(states).toContain('suspended');
  expect(states.indexOf('suspended')).toBeLessThan(states.lastIndexOf('reconnected'));
  expect(states).not.toContain('lost');
  expect(client.sessionId).toBe(sessionId);
}

describe('a leader killed under the recipes', () => {
  let killed: number | undefined;

  afterEach(async () => {
    // Back to three members, so the next test can lose a leader again.
    if (killed !== undefined) await fixture.ensemble.start(killed);
    killed = undefined;
    await fixture.ensemble.waitForQuorum();
  }, 120_000);

  it('a held mutex survives: kept by its holder, "lost" per lostOn, waiters served in order after', async () => {
    const a = await ensembleClient();
    const b = await ensembleClient();
    const c = await ensembleClient();
    const observer = await ensembleClient();
    // Two holders on two paths: one that only counts a lost session, one with the default policy.
    const holder = new InterProcessMutex(a.client, '/failover/mutex', { lostOn: 'lost' });
    const strict = new InterProcessMutex(a.client, '/failover/strict');
    expect(await holder.acquire()).toBe(true);
    expect(await strict.acquire()).toBe(true);
    const holderLost: LostEvent[] = [];
    const strictLost: LostEvent[] = [];
    holder.on('lost', (event) => holderLost.push(event));
    strict.on('lost', (event) => strictLost.push(event));

    const order: string[] = [];
    const first = new InterProcessMutex(b.client, '/failover/mutex');
    const second = new InterProcessMutex(c.client, '/failover/mutex');
    const firstAcquired = first.acquire({ timeoutMs: 120_000 }).then((ok) => {
      order.push('first');
      return ok;
    });
    await eventually(async () => (await holder.getParticipantNodes()).length === 2);
    const secondAcquired = second.acquire({ timeoutMs: 120_000 }).then((ok) => {
      order.push('second');
      return ok;
    });
    await eventually(async () => (await holder.getParticipantNodes()).length === 3);
    const sessionId = a.client.sessionId;

    killed = await killLeader();
    await expectSameSessionAfterDrop(a.client, a.states, sessionId);
    await eventually(() => [b, c, observer].every(({ client }) => client.state === 'connected'), {
      timeoutMs: 30_000,
    });

    // The session lived, so both holders still own their nodes.
    expect(holder.isAcquiredInThisProcess()).toBe(true);
    expect(await observer.client.exists(holder.lockNodePath as string)).not.toBeNull();
    expect(await observer.client.exists(strict.lockNodePath as string)).not.toBeNull();
    expect(holderLost).toEqual([]);
    expect(holder.lostSignal?.aborted).toBe(false);
    // The default policy cannot know the session will live: it reported the suspension, once.
    expect(strictLost).toEqual([{ reason: 'suspended', path: strict.lockNodePath }]);
    expect(strict.lostSignal?.aborted).toBe(true);

    // Nobody else got the lock meanwhile: the waiters are still in line behind the holder.
    expect(order).toEqual([]);
    expect((await holder.getParticipantNodes())[0]).toBe(holder.lockNodePath);
    await holder.release();
    expect(await firstAcquired).toBe(true);
    expect(second.isAcquiredInThisProcess()).toBe(false);
    await first.release();
    expect(await secondAcquired).toBe(true);
    expect(order).toEqual(['first', 'second']);
    await second.release();
    await strict.release();
    expect(await observer.client.getChildren('/failover/mutex')).toEqual([]);
    expect(await observer.client.getChildren('/failover/strict')).toEqual([]);
  });

  it('a leading LeaderLatch survives with lostOn "lost"; with the default policy it re-joins', async () => {
    const a = await ensembleClient();
    const b = await ensembleClient();
    const keeper = new LeaderLatch(a.client, '/failover/latch', { id: 'keeper', lostOn: 'lost' });
    const follower = new LeaderLatch(b.client, '/failover/latch', { id: 'follower' });
    const yielder = new LeaderLatch(a.client, '/failover/latch-default', { id: 'yielder' });
    const heir = new LeaderLatch(b.client, '/failover/latch-default', { id: 'heir' });
    await keeper.start();
    await yielder.start();
    expect(await keeper.await({ timeoutMs: 30_000 })).toBe(true);
    expect(await yielder.await({ timeoutMs: 30_000 })).toBe(true);
    await follower.start();
    await heir.start();
    const keeperEvents: string[] = [];
    const yielderEvents: string[] = [];
    for (const [latch, events] of [
      [keeper, keeperEvents],
      [yielder, yielderEvents],
    ] as const) {
      latch.on('isLeader', () => events.push('isLeader'));
      latch.on('notLeader', () => events.push('notLeader'));
      latch.on('lost', (event) => events.push(`lost:${event.reason}`));
    }
    const keeperNode = keeper.ourPath;
    const yielderNode = yielder.ourPath;
    const keeperToken = keeper.fencingToken as number;
    const yielderToken = yielder.fencingToken as number;
    const keeperSignal = keeper.leadershipSignal as AbortSignal;
    const sessionId = a.client.sessionId;

    killed = await killLeader();
    await expectSameSessionAfterDrop(a.client, a.states, sessionId);

    // lostOn 'lost': the session lived, so the leadership never ended; same node, same term.
    expect(keeperEvents).toEqual([]);
    expect(keeper.hasLeadership).toBe(true);
    expect(keeper.ourPath).toBe(keeperNode);
    expect(keeperSignal.aborted).toBe(false);
    expect(keeper.fencingToken).toBe(keeperToken); // the same term
    expect((await follower.getLeader()).id).toBe('keeper');
    expect(follower.hasLeadership).toBe(false);

    // Default policy: suspended ended the term. On reconnection every latch with that policy re-joins with a
    // fresh node (Curator's reset on RECONNECTED), so either may lead next, but exactly one does.
    expect(yielderEvents.slice(0, 2)).toEqual(['lost:suspended', 'notLeader']);
    expect(yielderEvents).not.toContain('lost:lost');
    await eventually(
      async () => {
        const participants = await heir.getParticipants();
        return participants.length === 2 && yielder.hasLeadership !== heir.hasLeadership;
      },
      { timeoutMs: 30_000 },
    );
    const [next, other] = yielder.hasLeadership ? [yielder, heir] : [heir, yielder];
    expect((await heir.getLeader()).id).toBe(next.id);
    expect(yielder.ourPath).not.toBe(yielderNode);
    expect(next.fencingToken).toBeGreaterThan(yielderToken); // a new term
    await next.close();
    expect(await other.await({ timeoutMs: 30_000 })).toBe(true);

    // The keeper hands over when it leaves, as before the failover.
    await keeper.close();
    expect(await follower.await({ timeoutMs: 30_000 })).toBe(true);
    await Promise.all([follower.close(), yielder.close(), heir.close()]);
    expect(await b.client.getChildren('/failover/latch')).toEqual([]);
    expect(await b.client.getChildren('/failover/latch-default')).toEqual([]);
  });
});
