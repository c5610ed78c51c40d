/**
 * QueueSharder on a real server: Curator's layout (`<queuePath>/queue-<uuid>` shards), the leader adding a
 * shard when one passes its threshold and no more than `maxQueues`, a second sharder taking up the shards,
 * puts spread to the shards with room, every item consumed once, bad arguments refused, a second start refused.
 */
import { eventually } from '@zkwire/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueArgumentError, QueueErrorCode } from '../src/errors.js';
import { QueueSharder } from '../src/queue-sharder.js';
import { connectClient, uniquePath, useQueueServer } from './helpers/fixture.js';
import { allocateQueue, drainShards, SHARD_NAME } from './helpers/shards.js';

describe('QueueSharder', () => {
  const fixture = useQueueServer();
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
  });

  it('adds shards while one is past the threshold, up to maxQueues, and spreads puts to shards with room', async () => {
    const queuePath = uniquePath('sharded');
    const leaderPath = `${queuePath}-leader`;
    const options = {
      queuePath,
      leaderPath,
      allocateQueue,
      newQueueThreshold: 4,
      thresholdCheckMs: 50,
      maxQueues: 3,
    };
    const warnings: unknown[] = [];
    const leader = new QueueSharder(fixture.client, { ...options, onError: (error) => warnings.push(error) });
    closers.push(() => leader.close());
    await leader.start();
    expect(leader.shardCount).toBe(1);
    const [first] = leader.queuePaths;
    expect(first?.slice(queuePath.length + 1)).toMatch(SHARD_NAME);
    await eventually(() => leader.isLeader);

    // A second sharder on its own session takes up the existing shard instead of making one.
    const otherClient = await connectClient(fixture.server.connectString);
    closers.push(() => otherClient.close());
    const follower = new QueueSharder(otherClient, options);
    closers.push(() => follower.close());
    await follower.start();
    expect(follower.queuePaths).toEqual([first]);
    // A second start is refused with a state error (not an argument error), and the sharder goes on.
    await expect(follower.start()).rejects.toMatchObject({
      code: QueueErrorCode.ILLEGAL_STATE,
      message: expect.stringContaining('already started'),
    });
    expect(follower.isLeader).toBe(false);

    // Fill the only shard: the leader adds shards while one is over its threshold (Curator's rule, one per
    // check), up to maxQueues, and says when it may add no more.
    for (let i = 0; i < 4; i++) await follower.getQueue().put(`a-${i}`);
    await eventually(() => warnings.length > 0, { timeoutMs: 20_000, what: 'the maxQueues warning' });
    expect(String(warnings[0])).toContain('maxQueues');
    expect(leader.shardCount).toBe(3);
    const shards = await fixture.client.getChildren(queuePath);
    expect(shards).toHaveLength(3);
    for (const shard of shards) expect(shard).toMatch(SHARD_NAME);

    // Both sharders take up the new shards and put only into those with room.
    await eventually(() => follower.shardCount === 3 && follower.preferredQueuePaths.length === 2, {
      timeoutMs: 20_000,
      what: 'the follower to prefer the new shards',
    });
    expect(follower.preferredQueuePaths).not.toContain(first);
    expect(follower.queuePaths.sort()).toEqual(leader.queuePaths.sort());
    const later = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? leader : follower).getQueue().put(`b-${i}`)),
    );
    for (const node of later) expect(node.startsWith(`${first}/`)).toBe(false);
    expect(await fixture.client.getChildren(first as string)).toHaveLength(4);

    await follower.close();
    await leader.close();
    const { items, left } = await drainShards(fixture.client, leader.queuePaths, 10);
    expect(items.sort()).toEqual([
      ...Array.from({ length: 4 }, (_, i) => `a-${i}`),
      ...Array.from({ length: 6 }, (_, i) => `b-${i}`),
    ]);
    expect(left).toBe(0);
  });

  it('refuses bad arguments before anything is sent', () => {
    const base = { queuePath: '/q', leaderPath: '/q-leader', allocateQueue };
    const bad: [options: unknown, argument: string][] = [
      [{ ...base, queuePath: 'q' }, 'queuePath'],
      [{ ...base, queuePath: '/' }, 'queuePath'],
      [{ ...base, queuePath: '/q//shards' }, 'queuePath'],
      [{ ...base, leaderPath: '/q' }, 'leaderPath'],
      [{ ...base, leaderPath: '/q/leader' }, 'leaderPath'],
      [{ ...base, allocateQueue: undefined }, 'allocateQueue'],
      [{ ...base, newQueueThreshold: 0 }, 'newQueueThreshold'],
      [{ ...base, thresholdCheckMs: 1.5 }, 'thresholdCheckMs'],
      [{ ...base, maxQueues: -1 }, 'maxQueues'],
      [null, 'options'],
    ];
    for (const [options, argument] of bad) {
      const make = () => new QueueSharder(fixture.client, options as never);
      expect(make).toThrow(QueueArgumentError);
      expect(make).toThrow(expect.objectContaining({ argument }));
    }
    const sharder = new QueueSharder(fixture.client, base);
    expect(() => sharder.getQueue()).toThrow(/not started/);
  });
});
