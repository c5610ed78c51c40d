import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { DistributedQueue, decodeBatch, stringSerializer } from '../src/index.js';
import { connectClient, startConsuming, uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

function lockSafe(
  path: string,
  extra: { errorMode?: 'requeue' | 'delete'; onError?: (e: unknown) => void } = {},
) {
  return new DistributedQueue(fixture.client, path, {
    serializer: stringSerializer,
    lockPath: `${path}-locks`,
    onError: () => {},
    ...extra,
  });
}

describe('lock-safe (at-least-once) consumption', () => {
  it('holds an ephemeral LP/<item> of its own session while consuming, and removes item and lock after', async () => {
    const path = uniquePath('ls-lock');
    const queue = lockSafe(path);
    const node = await queue.put('x');
    const name = node.slice(path.length + 1);
    let ownerSeen: bigint | undefined;
    const stop = new AbortController();
    await queue.consume(
      async () => {
        const stat = await fixture.client.exists(`${path}-locks/${name}`);
        ownerSeen = stat?.ephemeralOwner;
        stop.abort();
      },
      { signal: stop.signal },
    );
    expect(ownerSeen).toBe(fixture.client.sessionId);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
    await queue.close();
  });

  it('requeues the whole batch in one transaction when the consumer throws, and delivers it again', async () => {
    const path = uniquePath('ls-requeue');
    const reported: unknown[] = [];
    const queue = lockSafe(path, { onError: (e) => reported.push(e) });
    const first = await queue.putMulti(['a', 'b', 'c']);
    const seen: string[] = [];
    let failed = false;
    let requeuedName: string | undefined;
    const stop = new AbortController();
    await queue.consume(
      async (item, info) => {
        seen.push(item);
        if (item === 'b' && !failed) {
          failed = true;
          throw new Error('transient failure');
        }
        if (item === 'a' && failed) requeuedName = info.name;
        if (seen.length === 5) stop.abort();
      },
      { signal: stop.signal },
    );
    // a, b (fails), then the whole batch again: a, b, c.
    expect(seen).toEqual(['a', 'b', 'a', 'b', 'c']);
    expect(reported).toHaveLength(1);
    expect(requeuedName).toBeDefined();
    expect(`${path}/${requeuedName}`).not.toBe(first);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it("errorMode 'delete' reports the failing item and goes on with the rest of the batch", async () => {
    const path = uniquePath('ls-delete');
    const reported: unknown[] = [];
    const queue = lockSafe(path, { errorMode: 'delete', onError: (e) => reported.push(e) });
    await queue.putMulti(['a', 'bad', 'c']);
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        seen.push(item);
        if (item === 'bad') throw new Error('no');
        if (item === 'c') stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen).toEqual(['a', 'bad', 'c']);
    expect(reported).toHaveLength(1);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it('skips an item another consumer has locked and takes it as soon as that lock goes away', async () => {
    const path = uniquePath('ls-foreign-lock');
    const other = await connectClient(fixture.server.connectString);
    const queue = lockSafe(path);
    const node = await queue.put('held elsewhere');
    await queue.put('free');
    const name = node.slice(path.length + 1);
    await other.create(`${path}-locks/${name}`, null, { mode: 'ephemeral' });
    const { items: seen, done: run } = startConsuming(queue, 2);
    await eventually(() => seen.length === 1, { timeoutMs: 10_000, what: 'the free item' });
    expect(seen).toEqual(['free']);
    // The other consumer "dies": its session ends and the server drops its ephemeral lock.
    await other.close();
    await run;
    expect(seen).toEqual(['free', 'held elsewhere']);
    await queue.close();
  });

  it('moves a corrupt batch aside under its lock, and releases the lock', async () => {
    const path = uniquePath('ls-corrupt');
    const reported: unknown[] = [];
    const queue = lockSafe(path, { onError: (e) => reported.push(e) });
    await queue.start();
    const bad = await fixture.client.create(`${path}/queue-`, Buffer.from('0001000101ffffffff02', 'hex'), {
      mode: 'persistent-sequential',
    });
    await queue.put('good');
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        seen.push(item);
        stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen).toEqual(['good']);
    expect(reported).toHaveLength(1);
    expect((reported[0] as { path?: string }).path).toBe(bad);
    expect((reported[0] as Error).message).toMatch(/negative item length/);
    const name = bad.slice(path.length + 1);
    expect(await fixture.client.getChildren(`${path}-corrupt`)).toEqual([name]);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
    await queue.close();
  });

  it('a break out of the iterator puts the current item and the rest of its batch back', async () => {
    const path = uniquePath('ls-iter');
    const queue = lockSafe(path);
    await queue.putMulti(['1', '2', '3']);
    for await (const item of queue.items()) {
      if (item === '2') break;
    }
    const children = await fixture.client.getChildren(path);
    expect(children).toHaveLength(1);
    const { data } = await fixture.client.getData(`${path}/${children[0]}`);
    expect(decodeBatch(data).map(String)).toEqual(['2', '3']);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
    await queue.close();
  });

  it('close() does not hang on an iterator abandoned while it holds an item; the item goes back', async () => {
    const path = uniquePath('ls-abandon');
    const queue = lockSafe(path);
    await queue.putMulti(['held', 'next']);
    const iterator = queue.items();
    expect((await iterator.next()).value).toBe('held');
    await queue.close();
    const children = await fixture.client.getChildren(path);
    expect(children).toHaveLength(1);
    const { data } = await fixture.client.getData(`${path}/${children[0]}`);
    expect(decodeBatch(data).map(String)).toEqual(['held', 'next']);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
  });

  it('stopping through the signal mid-batch requeues what was not delivered', async () => {
    const path = uniquePath('ls-stop');
    const queue = lockSafe(path);
    await queue.putMulti(['1', '2', '3', '4']);
    const stop = new AbortController();
    const seen: string[] = [];
    await queue.consume(
      (item) => {
        seen.push(item);
        if (item === '2') stop.abort();
      },
      { signal: stop.signal },
    );
    expect(seen).toEqual(['1', '2']);
    const children = await fixture.client.getChildren(path);
    const { data } = await fixture.client.getData(`${path}/${children[0]}`);
    expect(decodeBatch(data).map(String)).toEqual(['3', '4']);
    await queue.close();
  });
});
