import { describe, expect, it } from 'vitest';
import { isQueueError, SimpleDistributedQueue } from '../src/index.js';
import { connectClient, uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

describe('SimpleDistributedQueue', () => {
  it('stores raw bytes in qn- nodes and hands them out in order', async () => {
    const path = uniquePath('simple');
    const queue = new SimpleDistributedQueue(fixture.client, path);
    const node = await queue.offer('s1');
    expect(node).toBe(`${path}/qn-0000000000`);
    expect((await fixture.client.getData(node)).data.toString()).toBe('s1');
    await queue.offer(Buffer.from([0, 1, 2]));
    await queue.offer('s3');
    expect((await queue.peek())?.toString()).toBe('s1');
    expect((await queue.poll())?.toString()).toBe('s1');
    expect([...((await queue.remove()) ?? [])]).toEqual([0, 1, 2]);
    expect((await queue.element()).toString()).toBe('s3');
    expect((await queue.take()).toString()).toBe('s3');
    expect(await queue.poll()).toBeNull();
    expect(await queue.peek()).toBeNull();
    const empty = await queue.remove().catch((e: unknown) => e);
    expect(isQueueError(empty, 'QUEUE_EMPTY')).toBe(true);
    queue.close();
  });

  it('refuses a path the client would refuse, naming the argument, before anything is sent', () => {
    for (const bad of ['q', '/q/', '/a//b', '/q/..', '/q\u0001', 7]) {
      let caught: unknown;
      try {
        new SimpleDistributedQueue(fixture.client, bad as never);
      } catch (error) {
        caught = error;
      }
      expect(isQueueError(caught, 'INVALID_ARGUMENT'), JSON.stringify(bad)).toBe(true);
      expect(caught).toMatchObject({ argument: 'path' });
    }
    expect(new SimpleDistributedQueue(fixture.client, '/').path).toBe('/');
  });

  it('take waits for an item offered later (by another client), and gives up at its timeout', async () => {
    const path = uniquePath('simple-take');
    const queue = new SimpleDistributedQueue(fixture.client, path);
    const other = await connectClient(fixture.server.connectString);
    const producer = new SimpleDistributedQueue(other, path);
    const timedOut = await queue.take({ timeoutMs: 200 }).catch((e: unknown) => e);
    expect(isQueueError(timedOut, 'ABORTED')).toBe(true);
    expect(await queue.poll({ timeoutMs: 100 })).toBeNull();
    const taking = queue.take();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await producer.offer('late');
    expect((await taking).toString()).toBe('late');
    const stop = new AbortController();
    const aborted = queue.take({ signal: stop.signal }).catch((e: unknown) => e);
    stop.abort(new Error('stop now'));
    expect(((await aborted) as Error).message).toBe('stop now');
    queue.close();
    producer.close();
    await other.close();
  });

  it('lets competing takers share the items without duplicates', async () => {
    const path = uniquePath('simple-compete');
    const a = new SimpleDistributedQueue(fixture.client, path);
    const other = await connectClient(fixture.server.connectString);
    const b = new SimpleDistributedQueue(other, path);
    for (let i = 0; i < 40; i++) await a.offer(`v${i}`);
    const got: string[] = [];
    const drain = async (queue: SimpleDistributedQueue) => {
      for (;;) {
        const value = await queue.poll();
        if (value === null) return;
        got.push(value.toString());
      }
    };
    await Promise.all([drain(a), drain(b)]);
    expect(got.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `v${i}`).sort());
    a.close();
    b.close();
    await other.close();
  });
});
