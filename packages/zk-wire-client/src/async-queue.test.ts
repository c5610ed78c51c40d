import { describe, expect, it } from 'vitest';
import { AsyncQueue } from './async-queue.js';

describe('AsyncQueue', () => {
  it('delivers pushed values in order, before and after the consumer waits', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const n of queue) seen.push(n);
    })();
    queue.push(2);
    await Promise.resolve();
    queue.push(3);
    queue.end();
    await consumer;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('throws the end error to the consumer, and runs onReturn once on an early exit', async () => {
    const failing = new AsyncQueue<number>();
    const next = failing.next();
    failing.end(new Error('gone'));
    await expect(next).rejects.toThrow('gone');
    let returned = 0;
    const queue = new AsyncQueue<number>(() => returned++);
    queue.push(1);
    for await (const _ of queue) break;
    await queue.return();
    expect(returned).toBe(1);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });
});
