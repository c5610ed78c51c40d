import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  parsePriority,
  stringSerializer,
} from '../src/index.js';
import { connectClient, countingClient, uniquePath } from './helpers/fixture.js';

let server: ZooKeeperServer;
let client: Awaited<ReturnType<typeof connectClient>>;

beforeAll(async () => {
  server = await startZooKeeper();
  client = await connectClient(server.connectString);
});
afterAll(async () => {
  await client?.close();
  await server?.[Symbol.asyncDispose]();
});

describe('DistributedPriorityQueue', () => {
  it('names nodes as Curator does and consumes lowest priority first, then in put order', async () => {
    const path = uniquePath('prio');
    const queue = new DistributedPriorityQueue(client, path, { serializer: stringSerializer });
    const puts: [string, number][] = [
      ['p5-a', 5],
      ['min', -2147483648],
      ['p5-b', 5],
      ['neg', -1],
      ['zero', 0],
      ['max', 2147483647],
      ['p255', 255],
    ];
    for (const [item, priority] of puts) await queue.put(item, priority);
    const names = await client.getChildren(path);
    expect(names.map(parsePriority).sort((a, b) => a! - b!)).toEqual([
      -2147483648, -1, 0, 5, 5, 255, 2147483647,
    ]);
    expect(names).toContain('queue-0800000000000000001');
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        seen.push(item);
        if (seen.length === puts.length) stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen).toEqual(['min', 'neg', 'zero', 'p5-a', 'p5-b', 'p255', 'max']);
    await queue.close();
  });

  async function urgentPosition(minItemsBeforeRefresh: number): Promise<number> {
    const path = uniquePath('prio-refresh');
    const queue = new DistributedPriorityQueue(client, path, {
      serializer: stringSerializer,
      minItemsBeforeRefresh,
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => queue.put(`normal-${i}`, 5)));
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      async (item) => {
        seen.push(item);
        if (seen.length === 1) await queue.put('urgent', -10);
        if (seen.length === 21) stop.abort();
      },
      { signal: stop.signal },
    );
    await queue.close();
    return seen.indexOf('urgent');
  }

  it('refreshes after N items so that a newer urgent item jumps ahead', async () => {
    expect(await urgentPosition(1)).toBe(1);
    // Without a refresh inside the snapshot, the urgent item waits for the whole snapshot.
    expect(await urgentPosition(1000)).toBe(20);
  });
});

describe('requeue in lock-safe mode (Curator quirk)', () => {
  it('re-creates a failed priority batch as queue-<seq>, without its priority, so it comes first', async () => {
    const path = uniquePath('prio-requeue');
    const queue = new DistributedPriorityQueue(client, path, {
      serializer: stringSerializer,
      lockPath: `${path}-locks`,
      onError: () => {},
      minItemsBeforeRefresh: 1, // re-list after the failed batch, so the requeued node is seen at once
    });
    await queue.put('urgent', -5);
    await queue.put('later', 100);
    const seen: { item: string; name: string }[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item, info) => {
        seen.push({ item, name: info.name });
        if (seen.length === 1) throw new Error('fail once');
        if (seen.length === 3) stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen.map((s) => s.item)).toEqual(['urgent', 'urgent', 'later']);
    expect(seen[1]?.name).toMatch(/^queue-\d{10}$/);
    await queue.close();
  });
});

describe('stopping mid-batch', () => {
  it('puts the rest back under the same priority (at-most-once) or the same id (lock-safe)', async () => {
    const path = uniquePath('prio-putback');
    const queue = new DistributedPriorityQueue(client, path, { serializer: stringSerializer });
    await queue.putMulti(['a', 'b', 'c'], 7);
    for await (const item of queue.items()) if (item === 'a') break;
    const [rest] = await client.getChildren(path);
    expect(rest?.startsWith('queue-100000007')).toBe(true);
    await queue.close();

    const idPath = uniquePath('id-putback');
    const ids = new DistributedIdQueue(client, idPath, {
      serializer: stringSerializer,
      lockPath: `${idPath}-l`,
    });
    await ids.put('only', 'job-9');
    for await (const _ of ids.items()) break;
    const [back] = await client.getChildren(idPath);
    expect(back?.startsWith('queue-|job-9|')).toBe(true);
    expect(await ids.remove('job-9')).toBe(1);
    await ids.close();
  });
});

describe('DistributedDelayQueue', () => {
  it('withholds items until due, delivers earliest first, and wakes by timer (few listings)', async () => {
    const path = uniquePath('delay');
    const counted = countingClient(client);
    const queue = new DistributedDelayQueue(counted.client, path, { serializer: stringSerializer });
    const now = Date.now();
    const due = { late: now + 1200, soon: now + 500, past: now - 1000 };
    await queue.put('late', due.late);
    await queue.put('soon', due.soon);
    await queue.put('past', due.past);
    const delivered: { item: string; at: number }[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        delivered.push({ item, at: Date.now() });
        if (delivered.length === 3) stop.abort();
      },
      { signal: stop.signal },
    );
    expect(delivered.map((d) => d.item)).toEqual(['past', 'soon', 'late']);
    for (const { item, at } of delivered) {
      const dueAt = due[item as keyof typeof due];
      expect(at).toBeGreaterThanOrEqual(dueAt); // never early
      expect(at - Math.max(dueAt, now)).toBeLessThan(2500); // woken near the due time (a generous bound for a loaded machine)
    }
    // Three puts and three deletes change the children; waiting on a timer adds no listings beyond those.
    expect(counted.calls.get('getChildren') ?? 0).toBeLessThanOrEqual(8);
    await queue.close();
  });

  it('re-sorts when a sooner item arrives while it waits for a later one', async () => {
    const path = uniquePath('delay-resort');
    const queue = new DistributedDelayQueue(client, path, { serializer: stringSerializer });
    const now = Date.now();
    await queue.put('in-two-seconds', now + 2000);
    const seen: string[] = [];
    const stop = new AbortController();
    const run = queue.consume(
      (item) => {
        seen.push(item);
        if (seen.length === 2) stop.abort();
      },
      { signal: stop.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await queue.put('in-300ms', Date.now() + 300);
    await run;
    expect(seen).toEqual(['in-300ms', 'in-two-seconds']);
    await queue.close();
  });
});

describe('DistributedIdQueue', () => {
  it('names items queue-|id|seq with / and | replaced, keeps put order, and removes by id', async () => {
    const path = uniquePath('id');
    const queue = new DistributedIdQueue(client, path, { serializer: stringSerializer });
    await queue.put('first a', 'a');
    await queue.put('b item', 'b');
    await queue.put('second a', 'a');
    const odd = await queue.put('odd id', 'x/y|z');
    expect(odd).toBe(`${path}/queue-|x_y_z|0000000003`);
    expect(await queue.remove('a')).toBe(2);
    expect(await queue.remove('a')).toBe(0);
    expect(await queue.remove('nobody')).toBe(0);
    await queue.put('c item', 'c');
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        seen.push(item);
        if (seen.length === 3) stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen).toEqual(['b item', 'odd id', 'c item']);
    await queue.close();
  });

  it('removes by the original id or its sanitised form, also in lock-safe mode', async () => {
    const path = uniquePath('id-ls');
    const queue = new DistributedIdQueue(client, path, {
      serializer: stringSerializer,
      lockPath: `${path}-locks`,
    });
    await queue.put('one', 'job/1');
    await queue.put('two', 'job/1');
    expect(await queue.remove('job/1')).toBe(1 + 1);
    await queue.put('three', 'job|2');
    expect(await queue.remove('job_2')).toBe(1);
    expect(await client.getChildren(path)).toEqual([]);
    expect(() => new DistributedIdQueue(client, '/bad|path', { serializer: stringSerializer })).toThrow(/\|/);
    expect(() => queue.put('x', '')).toThrow(/id/);
    await queue.close();
  });
});
