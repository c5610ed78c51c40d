import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('hands items back in order across wrap-arounds and growth', () => {
    const fifo = new Fifo<number>();
    const expected: number[] = [];
    let next = 0;
    // Interleave pushes and shifts so that the head moves round the ring while it grows (16 -> 32 -> 64).
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 3; i++) {
        fifo.push(next);
        expected.push(next++);
      }
      expect(fifo.shift()).toBe(expected.shift());
      expect(fifo.length).toBe(expected.length);
      expect(fifo.peek()).toBe(expected[0]);
    }
    expect([...fifo]).toEqual(expected);
    expect(fifo.drain()).toEqual(expected);
    expect(fifo.length).toBe(0);
    expect(fifo.peek()).toBeUndefined();
    expect(fifo.shift()).toBeUndefined();
  });

  it('lets go of a shifted item and of a large ring once empty', () => {
    const fifo = new Fifo<object>();
    const items = Array.from({ length: 10_000 }, () => ({}));
    for (const item of items) fifo.push(item);
    const slots = () => (fifo as unknown as { slots: unknown[] }).slots;
    expect(slots().length).toBe(16_384);
    for (const item of items.slice(0, 9_999)) expect(fifo.shift()).toBe(item);
    expect(slots().filter((slot) => slot !== undefined)).toEqual([items[9_999]]);
    expect(fifo.shift()).toBe(items[9_999]);
    expect(slots().length).toBe(16);
    fifo.push(items[0]!);
    expect([...fifo]).toEqual([items[0]]);
  });
});
