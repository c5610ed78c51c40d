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

  it('never holds more than its capacity: a new key in a full memo starts it over', () => {
    const memo = new BoundedMemo<number, string>(2);
    memo.keep(1, 'one');
    memo.keep(2, 'two');
    memo.keep(3, 'three');
    expect(memo.size).toBe(1);
    expect(memo.get(1)).toBeUndefined();
    expect(memo.get(3)).toBe('three');
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new BoundedMemo(bad), String(bad)).toThrow(RangeError);
  });
});
