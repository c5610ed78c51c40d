/**
 * Elections when the leader's session goes: leadership passes to the next contender and the old leader is
 * told "lost" (event and AbortSignal). One real server; a fault proxy stands between it and the leader when the
 * test needs the leader's connection to go quiet.
 */

import {
  eventually,
  type FaultProxy,
  startFaultProxy,
  startZooKeeper,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LostEvent } from '../src/internal-common/hold-monitor.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { LeaderSelector } from '../src/leader/leader-selector.js';
import { childrenOf, closeAll, deferred, openClient, type TestClient } from './helpers.js';

describe('elections across session loss (real server)', () => {
  let server: ZooKeeperServer;
  let proxy: FaultProxy;
  const opened: TestClient[] = [];

  beforeAll(async () => {
    server = await startZooKeeper();
    proxy = await startFaultProxy({ host: server.host, port: server.port });
  });

  afterAll(async () => {
    await closeAll(opened);
    await proxy?.close();
    await server?.stop();
  });

  async function client(connectString: string, sessionTimeoutMs?: number): Promise<TestClient> {
    const c = await openClient(connectString, sessionTimeoutMs);
    opened.push(c);
    return c;
  }

  it("hands a LeaderLatch's leadership over when the leader's session expires, and tells the old leader", async () => {
    const path = '/t/session/latch';
    const leaderClient = await client(server.connectString);
    const followerClient = await client(server.connectString);
    const leader = new LeaderLatch(leaderClient, path, { id: 'old' });
    const follower = new LeaderLatch(followerClient, path, { id: 'new' });
    const lost: LostEvent[] = [];
    const notLeader = deferred();
    leader.on('lost', (event) => lost.push(event));
    leader.on('notLeader', () => notLeader.resolve());
    await leader.start();
    await follower.start();
    const signal = leader.leadershipSignal as AbortSignal;
    expect(signal.aborted).toBe(false);

    // Expire the leader's session from outside: attach a second connection to it and close that one.
    const thief = await connect({
      connectString: server.connectString,
      session: { id: leaderClient.sessionId, password: leaderClient.sessionPassword },
    });
    await thief.close();

    expect(await follower.await({ timeoutMs: 30_000 })).toBe(true);
    expect(await follower.getParticipants()).toEqual([{ id: 'new', isLeader: true }]);
    await notLeader.promise;
    expect(leader.hasLeadership).toBe(false);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'HoldLostError' });
    expect(lost.length).toBe(1);
    expect(['suspended', 'lost']).toContain(lost[0]?.reason);
    await leader.close();
    await follower.close();
  });

  it('a LeaderLatch leader whose connection drops steps down and re-joins behind the other contender', async () => {
    const path = '/t/session/latch-reconnect';
    const leaderClient = await client(proxy.connectString);
    const otherClient = await client(server.connectString);
    const leader = new LeaderLatch(leaderClient, path, { id: 'was-leader' });
    const other = new LeaderLatch(otherClient, path, { id: 'other' });
    const lost: LostEvent[] = [];
    leader.on('lost', (event) => lost.push(event));
    await leader.start();
    await other.start();
    const oldNode = leader.ourPath;
    const signal = leader.leadershipSignal as AbortSignal;

    proxy.cut(); // the connection resets; the client reconnects within the same session
    expect(await other.await({ timeoutMs: 30_000 })).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(lost.map((event) => event.reason)).toEqual(['suspended']);
    await eventually(async () => (await other.getParticipants()).length === 2);
    expect(await other.getParticipants()).toEqual([
      { id: 'other', isLeader: true },
      { id: 'was-leader', isLeader: false },
    ]);
    expect(leader.ourPath).not.toBe(oldNode); // a fresh node, at the back of the line
    expect(leader.hasLeadership).toBe(false);
    await other.close();
    expect(await leader.await({ timeoutMs: 30_000 })).toBe(true);
    await leader.close();
  });

  it("with lostOn: 'lost' a LeaderLatch leader keeps leading through a reconnection", async () => {
    const path = '/t/session/latch-keep';
    const leaderClient = await client(proxy.connectString);
    const otherClient = await client(server.connectString);
    const leader = new LeaderLatch(leaderClient, path, { id: 'keeper', lostOn: 'lost' });
    const other = new LeaderLatch(otherClient, path, { id: 'other' });
    const lost: LostEvent[] = [];
    leader.on('lost', (event) => lost.push(event));
    await leader.start();
    await other.start();
    const node = leader.ourPath;
    const reconnected = deferred();
    leaderClient.on('state', (state) => {
      if (state === 'reconnected') reconnected.resolve();
    });
    proxy.cut();
    await reconnected.promise;
    expect(await other.await({ timeoutMs: 300 })).toBe(false);
    expect(leader.hasLeadership).toBe(true);
    expect(leader.ourPath).toBe(node);
    expect(leader.leadershipSignal?.aborted).toBe(false);
    expect(lost).toEqual([]);
    await leader.close();
    expect(await other.await({ timeoutMs: 20_000 })).toBe(true);
    await other.close();
  });

  it('cancels a LeaderSelector term when its connection is suspended; the other contender leads after expiry', async () => {
    const path = '/t/session/selector';
    const leaderClient = await client(proxy.connectString, 4_000);
    const otherClient = await client(server.connectString);
    const cancelled = deferred<unknown>();
    const lostEvents: LostEvent[] = [];
    const first = new LeaderSelector(
      leaderClient,
      path,
      ({ signal }) =>
        new Promise<void>((resolve) => {
          signal.addEventListener(
            'abort',
            () => {
              cancelled.resolve(signal.reason);
              resolve();
            },
            { once: true },
          );
        }),
      { id: 'first', autoRequeue: true },
    );
    first.on('lost', (event) => lostEvents.push(event));
    const gaveUp = deferred<unknown>();
    first.on('error', (error) => gaveUp.resolve(error));
    const secondLeads = deferred();
    const second = new LeaderSelector(otherClient, path, async () => secondLeads.resolve(), { id: 'second' });
    first.start();
    await eventually(async () => (await first.getLeader()).id === 'first');
    second.start();

    proxy.drop(true); // the leader's connection goes silent: pings time out, then the session expires
    expect(await cancelled.promise).toMatchObject({ name: 'HoldLostError', reason: 'suspended' });
    expect(lostEvents.map((event) => event.reason)).toContain('suspended');
    await secondLeads.promise; // the server expired the first session and deleted its node
    proxy.drop(false);
    // With its session gone for good, the auto-requeueing selector reports it and stops standing.
    expect(await gaveUp.promise).toMatchObject({ code: 'SESSIONEXPIRED' });
    await eventually(async () => (await second.getParticipants()).length === 0); // nobody stands any more
    await first.close();
    await second.close();
    expect(await childrenOf(otherClient, path)).toEqual([]);
  });
});
