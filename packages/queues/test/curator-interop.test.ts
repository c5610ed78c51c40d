import { beforeAll, describe, expect, it } from 'vitest';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  DistributedQueue,
  decodeBatch,
  parseDelayEpoch,
  stringSerializer,
} from '../src/index.js';
import { type CuratorDriver, curatorDriver } from './helpers/curator-driver.js';
import { consumeStamped, type StampedItem, uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();
let curator: CuratorDriver;

beforeAll(async () => {
  curator = await curatorDriver(fixture.server.connectString);
});

/** Takes `count` items with one of our consumers, recording each item's node name and when it came. */
async function drain(
  queue: { consume: DistributedQueue<string>['consume']; close(): Promise<void> },
  count: number,
): Promise<StampedItem<string>[]> {
  const got = await consumeStamped(queue, count);
  await queue.close();
  return got;
}

/** The due time in each item's node name (read before anyone consumes), by item text. */
async function dueTimesByItem(path: string): Promise<Map<string, number>> {
  const due = new Map<string, number>();
  for (const name of await fixture.client.getChildren(path)) {
    const { data } = await fixture.client.getData(`${path}/${name}`);
    for (const item of decodeBatch(data)) due.set(item.toString('utf8'), parseDelayEpoch(name));
  }
  return due;
}

const items = (got: { item: string }[]) => got.map((g) => g.item);

describe('interop with Curator 5.4.0: Java produces, we consume', () => {
  it('DistributedQueue put and putMulti', async () => {
    const path = uniquePath('j2n-plain');
    await curator.put(path, 'plain', [
      ['-', 'p1'],
      ['-', 'p2'],
    ]);
    await curator.putMulti(path, 'plain', '-', ['m1', 'm2', 'm3']);
    await curator.put(path, 'plain', [['-', 'p3']]);
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    expect(items(await drain(queue, 6))).toEqual(['p1', 'p2', 'm1', 'm2', 'm3', 'p3']);
  });

  it('DistributedPriorityQueue put and putMulti', async () => {
    const path = uniquePath('j2n-prio');
    await curator.put(path, 'priority', [
      [5, 'five'],
      [-1, 'minus-one'],
      [255, 'ff'],
      [0, 'zero'],
    ]);
    await curator.putMulti(path, 'priority', 3, ['three-a', 'three-b']);
    expect((await fixture.client.getChildren(path)).sort()).toContain('queue-1000000050000000000');
    const queue = new DistributedPriorityQueue(fixture.client, path, { serializer: stringSerializer });
    expect(items(await drain(queue, 6))).toEqual(['minus-one', 'zero', 'three-a', 'three-b', 'five', 'ff']);
  });

  it('DistributedDelayQueue put and putMulti: earliest first, never early', async () => {
    const path = uniquePath('j2n-delay');
    const now = Date.now();
    const due: Record<string, number> = {
      late: now + 4000,
      mid: now + 3000,
      'm-a': now + 2500,
      'm-b': now + 2500,
    };
    await curator.put(path, 'delay', [
      [due.late!, 'late'],
      [due.mid!, 'mid'],
    ]);
    await curator.putMulti(path, 'delay', due['m-a']!, ['m-a', 'm-b']);
    const queue = new DistributedDelayQueue(fixture.client, path, { serializer: stringSerializer });
    const got = await drain(queue, 4);
    expect(items(got)).toEqual(['m-a', 'm-b', 'mid', 'late']);
    for (const { item, name, at } of got) {
      // Java's node name carries the due time it was given, and we never hand an item out before it.
      expect(parseDelayEpoch(name)).toBe(due[item]);
      expect(at).toBeGreaterThanOrEqual(parseDelayEpoch(name));
    }
  });

  it('DistributedIdQueue put; our remove(id) removes Java items', async () => {
    const path = uniquePath('j2n-id');
    await curator.put(path, 'id', [
      ['a', 'a-1'],
      ['b', 'b-1'],
      ['a', 'a-2'],
      ['x/y', 'xy'],
    ]);
    const queue = new DistributedIdQueue(fixture.client, path, { serializer: stringSerializer });
    expect(await queue.remove('a')).toBe(2);
    expect(items(await drain(queue, 2))).toEqual(['b-1', 'xy']);
  });
});

describe('interop with Curator 5.4.0: we produce, Java consumes', () => {
  it('DistributedQueue put and putMulti', async () => {
    const path = uniquePath('n2j-plain');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.put('p1');
    await queue.putMulti(['m1', '', 'm3']);
    await queue.put('p2');
    await queue.close();
    expect(items(await curator.consume(path, 'plain', 5))).toEqual(['p1', 'm1', '', 'm3', 'p2']);
    expect(await fixture.client.getChildren(path)).toEqual([]);
  });

  it('DistributedQueue with a lock path: Java consumes lock-safe what we put', async () => {
    const path = uniquePath('n2j-locked');
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      lockPath: `${path}-locks`,
    });
    await queue.putMulti(['a', 'b']);
    await queue.put('c');
    await queue.close();
    expect(items(await curator.consume(path, 'plain', 3, `${path}-locks`))).toEqual(['a', 'b', 'c']);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
  });

  it('DistributedPriorityQueue put and putMulti', async () => {
    const path = uniquePath('n2j-prio');
    const queue = new DistributedPriorityQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.put('five', 5);
    await queue.put('min', -2147483648);
    await queue.putMulti(['two-a', 'two-b'], 2);
    await queue.put('max', 2147483647);
    await queue.put('minus', -256);
    await queue.close();
    expect(items(await curator.consume(path, 'priority', 6))).toEqual([
      'min',
      'minus',
      'two-a',
      'two-b',
      'five',
      'max',
    ]);
  });

  it('DistributedDelayQueue put and putMulti: Java delivers earliest first, not before due', async () => {
    const path = uniquePath('n2j-delay');
    const queue = new DistributedDelayQueue(fixture.client, path, { serializer: stringSerializer });
    const now = Date.now();
    const due: Record<string, number> = {
      later: now + 3500,
      sooner: now + 2500,
      'b-1': now + 3000,
      'b-2': now + 3000,
    };
    await queue.put('later', due.later!);
    await queue.put('sooner', due.sooner!);
    await queue.putMulti(['b-1', 'b-2'], due['b-1']!);
    await queue.close();
    const dueInName = await dueTimesByItem(path);
    expect(Object.fromEntries(dueInName)).toEqual(due);
    const got = await curator.consume(path, 'delay', 4);
    expect(items(got)).toEqual(['sooner', 'b-1', 'b-2', 'later']);
    // Java's clock (System.currentTimeMillis, same machine) at delivery, against the due time in the name.
    for (const { item, at } of got) expect(at).toBeGreaterThanOrEqual(dueInName.get(item)!);
  });

  it('DistributedIdQueue put: Java consumes in put order whatever the ids', async () => {
    const path = uniquePath('n2j-id');
    const queue = new DistributedIdQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.put('z-item', 'zzz');
    await queue.put('a-item', 'aaa');
    await queue.put('slash-item', 'p/q|r');
    await queue.close();
    expect(await fixture.client.getChildren(path)).toContain('queue-|p_q_r|0000000002');
    expect(items(await curator.consume(path, 'id', 3))).toEqual(['z-item', 'a-item', 'slash-item']);
  });
});

describe('interop with Curator 5.4.0: Java and Node consumers on one lock-safe queue', () => {
  it('share the items through the same LP/<item> locks, losing none', async () => {
    const path = uniquePath('shared-locked');
    const lockPath = `${path}-locks`;
    const producer = new DistributedQueue(fixture.client, path, { serializer: stringSerializer, lockPath });
    const all = new Set<string>();
    for (let b = 0; b < 20; b++) {
      const batch = [`s${b}-0`, `s${b}-1`, `s${b}-2`];
      for (const item of batch) all.add(item);
      await producer.putMulti(batch);
    }
    await producer.close();
    // Java takes one batch (3 items) and stops; we take the rest. Our first item is held, its LP lock with it,
    // until Java has an item: so both sides get a share whatever the JVM's start-up time, and Java's share
    // comes from a batch other than the one we hold locked.
    const java = curator.consumeLive(path, 'plain', 3, lockPath);
    const ours: string[] = [];
    const union = () => new Set([...ours, ...java.seen.map((d) => d.item)]);
    let heldBatchWhileJavaTook: string | undefined;
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer, lockPath });
    const stop = new AbortController();
    const run = queue.consume(
      async (item) => {
        if (ours.length === 0) {
          await java.firstItem;
          heldBatchWhileJavaTook = item.split('-')[0];
        }
        ours.push(item);
        if (union().size === all.size) stop.abort();
      },
      { signal: stop.signal },
    );
    const javaSeen = items(await java.done);
    // Whatever Java left (or held when it closed) comes to us; a consumer that is done stops at the last item.
    if (union().size === all.size) stop.abort();
    await run;
    await queue.close();
    expect(union()).toEqual(all);
    expect(javaSeen.length).toBeGreaterThan(0);
    expect(ours.length).toBeGreaterThan(0);
    expect(javaSeen.some((item) => item.startsWith(`${heldBatchWhileJavaTook}-`))).toBe(false);
    // A batch is consumed by one side at a time: on each side, its items come together and in order.
    for (const seen of [ours, javaSeen]) {
      for (let i = 1; i < seen.length; i++) {
        const [batch, index] = (seen[i] as string).split('-');
        if (index !== '0') expect(seen[i - 1]).toBe(`${batch}-${Number(index) - 1}`);
      }
    }
    expect(await fixture.client.getChildren(path)).toEqual([]);
    expect(await fixture.client.getChildren(lockPath)).toEqual([]);
  });
});
