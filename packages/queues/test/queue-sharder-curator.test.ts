/**
 * QueueSharder against Curator's (java/CuratorSharderDriver.java, a long-lived JVM) on one path: with a
 * Curator leader, our sharder's puts fill a shard and Curator adds the next one, which ours takes up and
 * puts into; with our leader, Curator's puts fill a shard and ours adds the next one, which Curator takes up
 * and puts into. Our consumers then take every item once, from every shard.
 */
import { eventually } from '@zkwire/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueSharder } from '../src/queue-sharder.js';
import { connectClient, uniquePath, useQueueServer } from './helpers/fixture.js';
import { type JavaSharder, startJavaSharder } from './helpers/sharder-driver.js';
import { allocateQueue, drainShards, SHARD_NAME } from './helpers/shards.js';

const THRESHOLD = 5;
const CHECK_MS = 100;

describe('QueueSharder with Curator', () => {
  const fixture = useQueueServer();
  const javas: JavaSharder[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const java of javas) java.kill();
    for (const close of closers.reverse()) await close().catch(() => {});
  });

  async function sharders(label: string, javaFirst: boolean) {
    const queuePath = uniquePath(label);
    const leaderPath = `${queuePath}-leader`;
    const startJava = async () => {
      const java = await startJavaSharder({
        connectString: fixture.server.connectString,
        queuePath,
        leaderPath,
        threshold: THRESHOLD,
        checkMs: CHECK_MS,
        maxQueues: 4,
      });
      javas.push(java);
      return java;
    };
    const client = await connectClient(fixture.server.connectString);
    closers.push(() => client.close());
    const ours = new QueueSharder(client, {
      queuePath,
      leaderPath,
      allocateQueue,
      newQueueThreshold: THRESHOLD,
      thresholdCheckMs: CHECK_MS,
      maxQueues: 4,
    });
    closers.push(() => ours.close());
    let java: JavaSharder;
    if (javaFirst) {
      java = await startJava();
      await eventually(() => java.leader, { timeoutMs: 30_000, what: 'the Curator sharder to lead' });
      await ours.start();
    } else {
      await ours.start();
      await eventually(() => ours.isLeader, { timeoutMs: 30_000, what: 'our sharder to lead' });
      java = await startJava();
    }
    return { queuePath, ours, java, client };
  }

  it('takes up the shard a Curator leader adds when our puts fill one', async () => {
    const { queuePath, ours, java, client } = await sharders('curator-leads', true);
    expect(java.shards).toHaveLength(1);
    expect(ours.queuePaths).toEqual(java.shards); // ours took up Curator's first shard
    expect(ours.isLeader).toBe(false);
    const first = java.shards[0] as string;
    expect(first.slice(queuePath.length + 1)).toMatch(SHARD_NAME);

    for (let i = 0; i < THRESHOLD; i++) await ours.getQueue().put(`ours-${i}`);
    // Curator's leader adds shards (one per check while ours is full); ours takes them up and prefers them.
    await eventually(() => ours.shardCount >= 2 && !ours.preferredQueuePaths.includes(first), {
      timeoutMs: 30_000,
      what: 'ours to prefer a shard Curator added',
    });
    const added = ours.preferredQueuePaths;
    for (const shard of added) expect(shard.slice(queuePath.length + 1)).toMatch(SHARD_NAME);
    await eventually(() => added.every((shard) => java.shards.includes(shard)), {
      timeoutMs: 30_000,
      what: 'Curator to report them',
    });
    expect(ours.isLeader).toBe(false); // so only Curator's leader made them
    const later = await Promise.all(Array.from({ length: 3 }, (_, i) => ours.getQueue().put(`later-${i}`)));
    for (const node of later) expect(added.some((shard) => node.startsWith(`${shard}/`))).toBe(true);

    await java.stop();
    await ours.close();
    const { items, left } = await drainShards(client, ours.queuePaths, THRESHOLD + 3);
    expect(items.sort()).toEqual([
      ...Array.from({ length: 3 }, (_, i) => `later-${i}`),
      ...Array.from({ length: THRESHOLD }, (_, i) => `ours-${i}`),
    ]);
    expect(left).toBe(0);
  });

  it('adds the shard that Curator then puts into when its puts fill one', async () => {
    const { queuePath, ours, java, client } = await sharders('ours-leads', false);
    expect(java.leader).toBe(false);
    expect(java.shards).toEqual(ours.queuePaths); // Curator took up our first shard
    const first = ours.queuePaths[0] as string;

    await java.put(THRESHOLD, 'java');
    await eventually(() => ours.shardCount >= 2, { timeoutMs: 30_000, what: 'ours to add a shard' });
    // Curator takes up the shards ours adds and, once its check saw the first one full, puts into them:
    // one probe at a time until a probe lands outside the first shard.
    const outsideFirst = async () => {
      for (const shard of ours.queuePaths) {
        if (shard !== first && (await client.getChildren(shard)).length > 0) return shard;
      }
      return undefined;
    };
    let probes = 0;
    await eventually(
      async () => {
        if ((await outsideFirst()) !== undefined) return true;
        await java.put(1, `probe${probes++}`);
        return false;
      },
      { timeoutMs: 60_000, what: 'a Curator put into a shard ours added' },
    );
    const landed = (await outsideFirst()) as string;
    expect(landed.slice(queuePath.length + 1)).toMatch(SHARD_NAME);
    await eventually(() => java.shards.includes(landed), {
      timeoutMs: 30_000,
      what: 'Curator to report the shard',
    }); // reports lag
    expect(java.leader).toBe(false); // so ours made it

    await java.stop();
    await ours.close();
    const { items, left } = await drainShards(client, ours.queuePaths, java.puts.length);
    expect(items.sort()).toEqual([...java.puts].sort());
    expect(left).toBe(0);
  });
});
