import { eventually } from '@zkwire/testing';
import { acls, op } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import {
  CorruptQueueItemError,
  DistributedQueue,
  decodeBatch,
  encodeBatch,
  isQueueError,
  jsonSerializer,
  stringSerializer,
} from '../src/index.js';
import {
  connectClient,
  consumeItems,
  countingClient,
  startConsuming,
  uniquePath,
  useQueueServer,
} from './helpers/fixture.js';

const fixture = useQueueServer();

describe('DistributedQueue', () => {
  it('delivers single puts in put order (FIFO by sequence) and removes them', async () => {
    const path = uniquePath('fifo');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    const items = Array.from({ length: 25 }, (_, i) => `item-${i}`);
    await Promise.all(items.map((item) => queue.put(item)));
    // Pipelined puts reach the server in call order, so sequence order is call order.
    expect(await consumeItems(queue, items.length)).toEqual(items);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it('writes one node per putMulti holding Curator batch bytes, delivered in batch order', async () => {
    const path = uniquePath('multi');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    const node = await queue.putMulti(['a', '', 'bc']);
    await queue.put('d');
    const { data } = await fixture.client.getData(node);
    expect(data.toString('hex')).toBe('000100010100000001610100000000010000000262' + '6302');
    expect(await fixture.client.getChildren(path)).toHaveLength(2);
    expect(await consumeItems(queue, 4)).toEqual(['a', '', 'bc', 'd']);
    await queue.close();
  });

  it('round-trips JSON items and ignores foreign children', async () => {
    const path = uniquePath('json');
    const queue = new DistributedQueue(fixture.client, path, { serializer: jsonSerializer<{ n: number }>() });
    await queue.start();
    await fixture.client.create(`${path}/not-an-item`, 'x');
    await queue.putMulti([{ n: 1 }, { n: 2 }]);
    expect(await consumeItems(queue, 2)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await fixture.client.getChildren(path)).toEqual(['not-an-item']);
    await queue.close();
  });

  it('serves items as an async iterable; a break puts the rest of the batch back', async () => {
    const path = uniquePath('iter');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.putMulti(['1', '2', '3', '4']);
    const seen: string[] = [];
    for await (const item of queue.items()) {
      seen.push(item);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['1', '2']);
    // At-most-once: "2" reached the loop body, so only "3" and "4" go back, as one new batch.
    const children = await fixture.client.getChildren(path);
    expect(children).toHaveLength(1);
    const { data } = await fixture.client.getData(`${path}/${children[0]}`);
    expect(decodeBatch(data).map(String)).toEqual(['3', '4']);
    const rest: string[] = [];
    for await (const item of queue) {
      rest.push(item);
      if (rest.length === 2) break;
    }
    expect(rest).toEqual(['3', '4']);
    await queue.close();
  });

  it('at-most-once: a consumer error loses that item (reported), the rest of the batch still comes', async () => {
    const path = uniquePath('amo-error');
    const reported: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      onError: (error) => reported.push(error),
    });
    await queue.putMulti(['ok-1', 'boom', 'ok-2']);
    await queue.put('ok-3');
    const got: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        got.push(item);
        if (item === 'boom') throw new Error('consumer failed');
        if (item === 'ok-3') stop.abort();
      },
      { signal: stop.signal },
    );
    expect(got).toEqual(['ok-1', 'boom', 'ok-2', 'ok-3']);
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('consumer failed');
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it('bounded: put waits while the queue is full and times out with QUEUE_FULL', async () => {
    const path = uniquePath('bounded');
    const counted = countingClient(fixture.client);
    const queue = new DistributedQueue(counted.client, path, { serializer: stringSerializer, maxItems: 2 });
    await queue.put('1');
    await queue.put('2');
    const full = await queue.put('3', { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(isQueueError(full, 'QUEUE_FULL')).toBe(true);
    expect(await fixture.client.getChildren(path)).toHaveLength(2);
    const watchedListings = () =>
      counted.requests.filter((request) => request.method === 'getChildren' && request.watched).length;
    const listingsBefore = watchedListings();
    const waiting = queue.put('3');
    // The put found the queue full and armed a children watch to wait on.
    await eventually(() => watchedListings() > listingsBefore, {
      timeoutMs: 10_000,
      what: 'the put to wait',
    });
    // Make room ourselves, in one transaction with a write whose Stat tells that transaction's zxid.
    const marker = await fixture.client.create(`${path}-marker`, null);
    const [first] = await fixture.client.getChildren(path).then((names) => names.sort());
    const [, touched] = await fixture.client.multi([
      op.delete(`${path}/${first}`),
      op.setData(marker, 'room'),
    ]);
    const roomZxid = (touched as { stat: { mzxid: bigint } }).stat.mzxid;
    const made = await waiting;
    // The put's node was created after the room appeared, not while the queue was full.
    expect((await fixture.client.exists(made))!.czxid).toBeGreaterThan(roomZxid);
    await fixture.client.delete(marker);
    expect(await consumeItems(queue, 2)).toEqual(['2', '3']);
    await queue.close();
  });

  it('close() flushes puts still in flight', async () => {
    const path = uniquePath('flush');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    for (let i = 0; i < 50; i++) void queue.put(`p${i}`);
    await queue.close();
    expect(await fixture.client.getChildren(path)).toHaveLength(50);
    expect(() => queue.put('late')).toThrow(/closed/);
  });

  it('refuses bad arguments before sending anything', () => {
    expect(() => new DistributedQueue(fixture.client, 'relative', { serializer: stringSerializer })).toThrow(
      /path/,
    );
    expect(
      () => new DistributedQueue(fixture.client, '/q', { serializer: stringSerializer, maxItems: 0 }),
    ).toThrow(/maxItems/);
    const queue = new DistributedQueue(fixture.client, uniquePath('args'), { serializer: jsonSerializer() });
    expect(() => queue.putMulti([])).toThrow(/non-empty/);
    expect(() => queue.put(undefined)).toThrow(/serialized/);
  });

  it('moves a corrupt batch aside, reports it with its path, and goes on with the next item', async () => {
    const path = uniquePath('corrupt');
    const reported: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      onError: (error) => reported.push(error),
    });
    await queue.put('before');
    const bad = [
      Buffer.from('00010002' + '02', 'hex'), // wrong version
      Buffer.from('00010001' + '07', 'hex'), // unknown opcode
      Buffer.from('00010001' + '0100000009' + '6162', 'hex'), // truncated
    ];
    const badPaths: string[] = [];
    for (const bytes of bad)
      badPaths.push(await fixture.client.create(`${path}/queue-`, bytes, { mode: 'persistent-sequential' }));
    await queue.put('after');
    expect(await consumeItems(queue, 2)).toEqual(['before', 'after']);
    expect(reported).toHaveLength(3);
    for (const [i, error] of reported.entries()) {
      expect(error).toBeInstanceOf(CorruptQueueItemError);
      const corrupt = error as CorruptQueueItemError;
      expect(corrupt.code).toBe('CORRUPT_ITEM');
      expect(corrupt.path).toBe(badPaths[i]);
      const name = badPaths[i]!.slice(path.length + 1);
      expect(corrupt.movedTo).toBe(`${path}-corrupt/${name}`);
      const moved = await fixture.client.getData(corrupt.movedTo!);
      expect(moved.data.equals(bad[i]!)).toBe(true);
    }
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it('reports a corrupt batch it cannot move once, skips it, and does not loop on it', async () => {
    const path = uniquePath('corrupt-stuck');
    const corruptPath = `${path}-readonly`;
    const reported: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      corruptPath,
      onError: (error) => reported.push(error),
    });
    await queue.start();
    // The corrupt path refuses children (read-only ACL), so the move fails.
    await fixture.client.create(corruptPath, null, { acl: acls.readOnly() });
    const bad = await fixture.client.create(`${path}/queue-`, Buffer.from('ff'), {
      mode: 'persistent-sequential',
    });
    await queue.put('one');
    const { items: seen, done: run } = startConsuming(queue, 3);
    await eventually(() => seen.length === 1, { timeoutMs: 10_000, what: 'the first good item' });
    // Later changes make the consumer list again; the stuck node must not be reported again.
    await queue.put('two');
    await queue.put('three');
    await run;
    expect(seen).toEqual(['one', 'two', 'three']);
    expect(reported).toHaveLength(2);
    expect(reported[0]).toBeInstanceOf(CorruptQueueItemError);
    expect((reported[0] as CorruptQueueItemError).path).toBe(bad);
    expect((reported[0] as CorruptQueueItemError).movedTo).toBeUndefined();
    expect((reported[1] as { code?: string }).code).toBe('NOAUTH');
    expect(await fixture.client.getChildren(path)).toEqual([bad.slice(path.length + 1)]);
    await queue.close();
  });

  it('drains 10,000 items with a handful of listings, not one per item', async () => {
    const path = uniquePath('large');
    const counted = countingClient(fixture.client);
    const producer = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    const total = 10_000;
    for (let start = 0; start < total; start += 1000) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => producer.put(`i${start + i}`)));
    }
    const consumer = new DistributedQueue(counted.client, path, { serializer: stringSerializer });
    const got = await consumeItems(consumer, total);
    // Puts on one connection get their sequence numbers in call order: the whole order is the put order.
    expect(got).toEqual(Array.from({ length: total }, (_, i) => `i${i}`));
    // One listing per snapshot, each arming the one children watch that marks the snapshot stale.
    const listings = counted.requests.filter((request) => request.method === 'getChildren');
    expect(listings.every((request) => request.watched)).toBe(true);
    expect(listings).toHaveLength(consumer.stats.listings);
    expect(listings.length).toBeGreaterThanOrEqual(1);
    expect(listings.length).toBeLessThan(10);
    // One read per node (a few more at most, when a read-ahead outlives its snapshot).
    expect(counted.calls.get('getData')).toBeGreaterThanOrEqual(total);
    expect(counted.calls.get('getData')).toBeLessThanOrEqual(total + 32);
    await producer.close();
    await consumer.close();
  });

  it('refuses a listing that would not fit the frame limit with LISTING_TOO_LARGE', async () => {
    const path = uniquePath('too-large');
    const producer = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    await Promise.all(Array.from({ length: 200 }, (_, i) => producer.put(`x${i}`)));
    const consumer = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      listingLimitBytes: 2000,
    });
    const error = await consumer.consume(() => {}).catch((e: unknown) => e);
    expect(isQueueError(error, 'LISTING_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toMatch(/200 children/);
    expect(await fixture.client.getChildren(path)).toHaveLength(200);
    await producer.close();
    await consumer.close();
  });

  it('lets two competing at-most-once consumers share the items without duplicates', async () => {
    const path = uniquePath('compete');
    const other = await connectClient(fixture.server.connectString);
    const a = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    const b = new DistributedQueue(other, path, { serializer: stringSerializer });
    const items = Array.from({ length: 200 }, (_, i) => `c${i}`);
    await Promise.all(items.map((item) => a.put(item)));
    const seen: string[] = [];
    const stop = new AbortController();
    const handler = (item: string) => {
      seen.push(item);
      if (seen.length === items.length) stop.abort();
    };
    await Promise.all([
      a.consume(handler, { signal: stop.signal }),
      b.consume(handler, { signal: stop.signal }),
    ]);
    expect([...seen].sort()).toEqual([...items].sort());
    await a.close();
    await b.close();
    await other.close();
  });

  it('encodes exactly what decodeBatch reads back (exported helpers)', () => {
    expect(decodeBatch(encodeBatch([Buffer.from('z')])).map(String)).toEqual(['z']);
  });
});
