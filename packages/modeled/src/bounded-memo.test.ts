import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('keeps values by key and gives them back', () => {
    const memo = new BoundedMemo<string, number>(3);
    expect(memo.keep('a', 1)).toBe(1);
    memo.keep('b', 2);
    expect(memo.get('a')).toBe(1);
    expect(memo.get('b')).toBe(2);
    expect(memo.get('c')).toBeUndefined();
    expect(memo.size).toBe(2);
  });

  it('never holds more than its capacity: a new key in a full memo that paid off starts it over', () => {
    const memo = new BoundedMemo<number, string>(2);
    memo.keep(1, 'one');
    memo.keep(2, 'two');
    memo.get(1);
    memo.get(2);
    expect(memo.keep(3, 'three')).toBe('three');
    expect(memo.size).toBe(1);
    expect(memo.get(1)).toBeUndefined();
    expect(memo.get(3)).toBe('three');
    expect(memo.isResting).toBe(false);
  });

  it('rests when its entries were hit fewer times than there are entries, then keeps again', () => {
    const memo = new BoundedMemo<number, number>(2);
    memo.keep(1, 1);
    memo.keep(2, 2);
    memo.get(1); // one hit for two entries: the keys in use do not fit
    expect(memo.keep(3, 3)).toBe(3);
    expect(memo.size).toBe(0);
    expect(memo.isResting).toBe(true);
    let given = 0;
    while (memo.isResting) {
      expect(memo.keep(100 + given, given)).toBe(given);
      expect(memo.size).toBe(0);
      given++;
    }
    expect(given).toBeGreaterThanOrEqual(memo.capacity);
    memo.keep(4, 4);
    expect(memo.get(4)).toBe(4);
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new BoundedMemo(bad), String(bad)).toThrow(RangeError);
  });
});
