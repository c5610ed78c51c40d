import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  parseDelayEpoch,
  parsePriority,
  stringSerializer,
} from '../src/index.js';
import {
  consumeItems,
  consumeStamped,
  countingClient,
  uniquePath,
  useQueueServer,
} from './helpers/fixture.js';

const fixture = useQueueServer();

describe('DistributedPriorityQueue', () => {
  it('names nodes as Curator does and consumes lowest priority first, then in put order', async () => {
    const path = uniquePath('prio');
    const queue = new DistributedPriorityQueue(fixture.client, path, { serializer: stringSerializer });
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
    const names = await fixture.client.getChildren(path);
    expect(names.map(parsePriority).sort((a, b) => a! - b!)).toEqual([
      -2147483648, -1, 0, 5, 5, 255, 2147483647,
    ]);
    expect(names).toContain('queue-0800000000000000001');
    expect(await consumeItems(queue, puts.length)).toEqual([
      'min',
      'neg',
      'zero',
      'p5-a',
      'p5-b',
      'p255',
      'max',
    ]);
    await queue.close();
  });

  async function urgentPosition(minItemsBeforeRefresh: number): Promise<number> {
    const path = uniquePath('prio-refresh');
    const queue = new DistributedPriorityQueue(fixture.client, path, {
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
    const queue = new DistributedPriorityQueue(fixture.client, path, {
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
    const queue = new DistributedPriorityQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.putMulti(['a', 'b', 'c'], 7);
    for await (const item of queue.items()) if (item === 'a') break;
    const [rest] = await fixture.client.getChildren(path);
    expect(rest?.startsWith('queue-100000007')).toBe(true);
    await queue.close();

    const idPath = uniquePath('id-putback');
    const ids = new DistributedIdQueue(fixture.client, idPath, {
      serializer: stringSerializer,
      lockPath: `${idPath}-l`,
    });
    await ids.put('only', 'job-9');
    for await (const _ of ids.items()) break;
    const [back] = await fixture.client.getChildren(idPath);
    expect(back?.startsWith('queue-|job-9|')).toBe(true);
    expect(await ids.remove('job-9')).toBe(1);
    await ids.close();
  });
});

describe('DistributedDelayQueue', () => {
  it('withholds items until the due time in their node name and delivers earliest first', async () => {
    const path = uniquePath('delay');
    const queue = new DistributedDelayQueue(fixture.client, path, { serializer: stringSerializer });
    const now = Date.now();
    const due = { late: now + 1200, soon: now + 500, past: now - 1000 };
    await queue.put('late', due.late);
    await queue.put('soon', due.soon);
    await queue.put('past', due.past);
    const delivered = await consumeStamped(queue, 3);
    expect(delivered.map((d) => d.item)).toEqual(['past', 'soon', 'late']);
    for (const { item, name, at } of delivered) {
      // The name carries the due time we put (Curator's encoding), and no item comes out before it.
      expect(parseDelayEpoch(name)).toBe(due[item as keyof typeof due]);
      expect(at).toBeGreaterThanOrEqual(parseDelayEpoch(name));
    }
    await queue.close();
  });

  it('waits for a due item on a timer: no request between its listing and the due time', async () => {
    const path = uniquePath('delay-timer');
    const producer = new DistributedDelayQueue(fixture.client, path, { serializer: stringSerializer });
    await producer.put('later', Date.now() + 2000);
    await producer.close();
    const counted = countingClient(fixture.client);
    const queue = new DistributedDelayQueue(counted.client, path, { serializer: stringSerializer });
    const [delivered] = await consumeStamped(queue, 1);
    await queue.close();
    const dueAt = parseDelayEpoch(delivered!.name);
    expect(delivered!.at).toBeGreaterThanOrEqual(dueAt);
    const beforeDue = counted.requests.filter((request) => request.at < dueAt);
    // One listing (arming the children watch) found the item not yet due; the consumer then slept until the
    // due time: a polling loop would have listed or read again before it.
    expect(beforeDue.filter((request) => request.method === 'getChildren')).toEqual([
      expect.objectContaining({ watched: true }),
    ]);
    expect(beforeDue.at(-1)?.method).toBe('getChildren');
    expect(counted.requests.filter((request) => request.at >= dueAt).length).toBeGreaterThan(0);
  });

  it('re-sorts when a sooner item arrives while it waits for a later one', async () => {
    const path = uniquePath('delay-resort');
    const counted = countingClient(fixture.client);
    const queue = new DistributedDelayQueue(counted.client, path, { serializer: stringSerializer });
    const far = Date.now() + 10 * 60_000;
    await queue.put('in-ten-minutes', far);
    const run = consumeStamped(queue, 1);
    // Once the consumer has listed (and found nothing due), a sooner item arrives: its watch wakes it.
    await eventually(() => counted.calls.has('getChildren'), {
      timeoutMs: 10_000,
      what: 'the first listing',
    });
    await queue.put('due-now', Date.now());
    const [first] = await run;
    expect(first?.item).toBe('due-now');
    const [left] = await fixture.client.getChildren(path);
    expect(parseDelayEpoch(left!)).toBe(far);
    await queue.close();
  });
});

describe('DistributedIdQueue', () => {
  it('names items queue-|id|seq with / and | replaced, keeps put order, and removes by id', async () => {
    const path = uniquePath('id');
    const queue = new DistributedIdQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.put('first a', 'a');
    await queue.put('b item', 'b');
    await queue.put('second a', 'a');
    const odd = await queue.put('odd id', 'x/y|z');
    expect(odd).toBe(`${path}/queue-|x_y_z|0000000003`);
    expect(await queue.remove('a')).toBe(2);
    expect(await queue.remove('a')).toBe(0);
    expect(await queue.remove('nobody')).toBe(0);
    await queue.put('c item', 'c');
    expect(await consumeItems(queue, 3)).toEqual(['b item', 'odd id', 'c item']);
    await queue.close();
  });

  it('removes by the original id or its sanitised form, also in lock-safe mode', async () => {
    const path = uniquePath('id-ls');
    const queue = new DistributedIdQueue(fixture.client, path, {
      serializer: stringSerializer,
      lockPath: `${path}-locks`,
    });
    await queue.put('one', 'job/1');
    await queue.put('two', 'job/1');
    expect(await queue.remove('job/1')).toBe(1 + 1);
    await queue.put('three', 'job|2');
    expect(await queue.remove('job_2')).toBe(1);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    expect(
      () => new DistributedIdQueue(fixture.client, '/bad|path', { serializer: stringSerializer }),
    ).toThrow(/\|/);
    expect(() => queue.put('x', '')).toThrow(/id/);
    await queue.close();
  });
});
