/**
 * SetPartitioner against kazoo's (Debian's python3-kazoo, run as child processes) on one real server: Node
 * and kazoo members divide one set, each item held by one member's lock, as members of either kind join and
 * leave; and a member killed (SIGKILL) in the middle of its allocation, kazoo or Node (in a child process),
 * leaves its share to the others once the server expires its session.
 */
import { eventually } from '@zkwire/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { Deadline } from '../src/internal-common/deadline.js';
import { KazooLock } from '../src/partitioner/kazoo-lock.js';
import { SetPartitioner } from '../src/partitioner/set-partitioner.js';
import { childrenOf, useRealServer } from './helpers.js';
import { KazooMember } from './kazoo/kazoo-member.js';
import {
  expectOnePartitioning,
  isOnePartitioning,
  lockHolders,
  nodeShare,
  type ReportedShare,
  releaseWhenAsked,
} from './partitioner-helpers.js';

const ITEMS = ['q-a', 'q-b', 'q-c', 'q-d', 'q-e', 'q-f', 'q-g'];
const NODE_TIMING = { timeBoundaryMs: 500, maxReactionTimeMs: 300 };
/** Long enough for a session to expire and the members to settle again, under load. */
const LONG = { timeoutMs: 60_000 };

describe('SetPartitioner with kazoo members', () => {
  // tickTime 500: the server grants the kazoo members' 4 s sessions, so a killed one expires soon.
  const zk = useRealServer({ clients: 3, server: { tickTime: 500 } });
  const kazoo: KazooMember[] = [];
  const partitioners: SetPartitioner[] = [];
  afterAll(async () => {
    await Promise.all(kazoo.map((member) => member.kill()));
    await Promise.all(partitioners.map((partitioner) => partitioner.finish().catch(() => {})));
  });

  function kazooMember(path: string, identifier: string, runtime: 'kazoo' | 'node' = 'kazoo'): KazooMember {
    const member = new KazooMember({
      runtime,
      connectString: zk.server.connectString,
      path,
      identifier,
      items: ITEMS,
      timeBoundaryS: NODE_TIMING.timeBoundaryMs / 1_000,
      sessionTimeoutS: 4,
    });
    kazoo.push(member);
    return member;
  }

  async function nodeMember(index: number, path: string, identifier: string): Promise<SetPartitioner> {
    const partitioner = new SetPartitioner(zk.client(index), path, {
      items: ITEMS,
      identifier,
      ...NODE_TIMING,
    });
    partitioners.push(partitioner);
    releaseWhenAsked(partitioner);
    await partitioner.start();
    return partitioner;
  }

  const kazooShare = (member: KazooMember): ReportedShare => {
    member.assertRunning(); // a member that died fails the wait at once, with its stderr
    return { session: member.session ?? 'not joined', items: member.acquired };
  };

  it('shares one partitioning as Node and kazoo members join and leave', async () => {
    const path = '/partition/mixed';
    const node1 = await nodeMember(0, path, 'node-1');
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, [nodeShare(node1, zk.client(0))]));
    expect(node1.items).toEqual(ITEMS);

    // A kazoo member joins a Node member's partitioning: both divide the set again.
    const kazoo1 = kazooMember(path, 'kazoo-1');
    const twoShares = () => [nodeShare(node1, zk.client(0)), kazooShare(kazoo1)];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, twoShares()), LONG);
    await expectOnePartitioning(zk.client(0), path, ITEMS, twoShares());
    // kazoo's split of the sorted members ['kazoo-1', 'node-1']: every other item, from each one's place.
    expect(kazoo1.acquired).toEqual(['q-a', 'q-c', 'q-e', 'q-g']);
    expect(node1.items).toEqual(['q-b', 'q-d', 'q-f']);
    expect(kazoo1.events.map((event) => event.event)).toContain('joined');

    // A second Node member joins one that kazoo is part of: kazoo releases and divides again too.
    const node2 = await nodeMember(1, path, 'node-2');
    const threeShares = () => [
      nodeShare(node1, zk.client(0)),
      kazooShare(kazoo1),
      nodeShare(node2, zk.client(1)),
    ];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, threeShares()), LONG);
    expect(kazoo1.acquired).toEqual(['q-a', 'q-d', 'q-g']);
    expect(kazoo1.events.filter((event) => event.event === 'release').length).toBeGreaterThanOrEqual(1);

    // The kazoo member finishes (releases its locks, leaves the party): the Node members take its share.
    await kazoo1.finish();
    expect(kazoo1.events.at(-1)?.event).toBe('finished');
    const nodeShares = () => [nodeShare(node1, zk.client(0)), nodeShare(node2, zk.client(1))];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, nodeShares()), LONG);
    await expectOnePartitioning(zk.client(0), path, ITEMS, nodeShares());
    expect((await childrenOf(zk.client(0), `${path}/party`)).length).toBe(2);
  });

  it('re-partitions when a kazoo member is killed in the middle of its allocation', async () => {
    const path = '/partition/killed';
    // Members sort as ['kazoo-1', 'kazoo-2', 'node-1']: kazoo-1's share is q-a, q-d, q-g. A lock on q-d,
    // taken first by the test, stops kazoo-1 after it took q-a: that is where it dies.
    const blocker = new KazooLock(zk.client(2), `${path}/locks/q-d`, new Uint8Array(0));
    expect(await blocker.acquire(Deadline.of({ timeoutMs: 30_000 }))).toBe(true);
    const kazoo1 = kazooMember(path, 'kazoo-1');
    const kazoo2 = kazooMember(path, 'kazoo-2');
    const node1 = await nodeMember(0, path, 'node-1');
    await eventually(async () => {
      if (kazoo1.session === undefined) return false;
      const holders = await lockHolders(zk.client(0), path, ['q-a']);
      return (
        holders.get('q-a') === kazoo1.session && kazoo2.acquired !== undefined && node1.state === 'acquired'
      );
    }, LONG);
    expect(kazoo2.acquired).toEqual(['q-b', 'q-e']);
    expect(node1.items).toEqual(['q-c', 'q-f']);
    expect(kazoo1.acquired).toBeUndefined(); // still allocating: it holds q-a and waits for q-d

    await kazoo1.kill();
    // Its session outlives it for a while; once the server expires it, its party node and its lock on q-a
    // are gone, and the two survivors divide the set between them (q-d once the blocker lets it go).
    await eventually(async () => (await childrenOf(zk.client(0), `${path}/party`)).length === 2, LONG);
    await blocker.release();
    const survivors = () => [kazooShare(kazoo2), nodeShare(node1, zk.client(0))];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, survivors()), LONG);
    await expectOnePartitioning(zk.client(0), path, ITEMS, survivors());
    expect(kazoo2.acquired).toEqual(['q-a', 'q-c', 'q-e', 'q-g']);
    expect(node1.items).toEqual(['q-b', 'q-d', 'q-f']);
  });

  it('re-partitions among kazoo members when a Node member is killed in the middle of its allocation', async () => {
    const path = '/partition/node-killed';
    // Members sort as ['kazoo-1', 'kazoo-2', 'node-9']: the Node member's share is q-c, q-f; a lock on q-f,
    // taken first by the test, stops it after it took q-c.
    const blocker = new KazooLock(zk.client(2), `${path}/locks/q-f`, new Uint8Array(0));
    expect(await blocker.acquire(Deadline.of({ timeoutMs: 30_000 }))).toBe(true);
    const kazoo1 = kazooMember(path, 'kazoo-1');
    const kazoo2 = kazooMember(path, 'kazoo-2');
    const node9 = kazooMember(path, 'node-9', 'node');
    await eventually(async () => {
      for (const member of [kazoo1, kazoo2, node9]) member.assertRunning();
      if (node9.session === undefined) return false;
      const holders = await lockHolders(zk.client(0), path, ['q-c']);
      return (
        holders.get('q-c') === node9.session && kazoo1.acquired !== undefined && kazoo2.acquired !== undefined
      );
    }, LONG);
    expect(kazoo1.acquired).toEqual(['q-a', 'q-d', 'q-g']);
    expect(kazoo2.acquired).toEqual(['q-b', 'q-e']);
    expect(node9.acquired).toBeUndefined(); // still allocating: it holds q-c and waits for q-f

    await node9.kill();
    await eventually(async () => (await childrenOf(zk.client(0), `${path}/party`)).length === 2, LONG);
    await blocker.release();
    const survivors = () => [kazooShare(kazoo1), kazooShare(kazoo2)];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, survivors()), LONG);
    await expectOnePartitioning(zk.client(0), path, ITEMS, survivors());
    expect(kazoo1.acquired).toEqual(['q-a', 'q-c', 'q-e', 'q-g']);
    expect(kazoo2.acquired).toEqual(['q-b', 'q-d', 'q-f']);
  });
});
