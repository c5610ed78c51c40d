import { describe, expect, it, vi } from 'vitest';
import { AsyncQueue, EventOverflowError } from './async-queue.js';

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

describe('AsyncQueue under a backlog', () => {
  it('drains a large backlog in order through wrap-arounds, without Array.prototype.shift', async () => {
    const queue = new AsyncQueue<number>();
    const shift = vi.spyOn(Array.prototype, 'shift');
    try {
      // Interleaved pushes and reads move the ring's head around its array many times while it grows.
      let expected = 0;
      for (let round = 0; round < 50; round++) {
        for (let i = 0; i < 1000; i++) queue.push(round * 1000 + i);
        for (let i = 0; i < 600; i++) {
          const { value } = await queue.next();
          if (value !== expected) expect.fail(`read ${value}, expected ${expected}`);
          expected++;
        }
      }
      expect(queue.buffered).toBe(50 * 400);
      for (let i = 0; i < 50 * 400; i++) {
        const { value } = await queue.next();
        if (value !== expected) expect.fail(`read ${value}, expected ${expected}`);
        expected++;
      }
      expect(expected).toBe(50_000);
      // The old queue took the head with shift() of a plain array: quadratic over a large backlog.
      expect(shift).not.toHaveBeenCalled();
    } finally {
      shift.mockRestore();
    }
  });

  it('overflow: the buffered values come out, then EventOverflowError; onReturn runs at once', async () => {
    let returned = 0;
    const queue = new AsyncQueue<number>(() => returned++, 5);
    for (let i = 0; i < 8; i++) queue.push(i);
    expect(returned).toBe(1);
    expect(queue.isEnded).toBe(true);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const n of queue) seen.push(n);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(error).toBeInstanceOf(EventOverflowError);
    expect((error as EventOverflowError).code).toBe('EVENTOVERFLOW');
    expect(returned).toBe(1);
  });

  it('a consumer that keeps up never overflows, whatever the total', async () => {
    const queue = new AsyncQueue<number>(undefined, 3);
    let sum = 0;
    const consumer = (async () => {
      for await (const n of queue) sum += n;
    })();
    for (let i = 0; i < 10_000; i++) {
      queue.push(1);
      if (i % 3 === 2) await new Promise((r) => setImmediate(r));
    }
    queue.end();
    await consumer;
    expect(sum).toBe(10_000);
  });
});
