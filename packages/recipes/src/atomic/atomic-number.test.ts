import { describe, expect, it } from 'vitest';
import { INT32_LAYOUT, INT64_LAYOUT } from './atomic-number.js';

describe('number layouts of the distributed atomics', () => {
  it('wraps int32 arithmetic as Java int does', () => {
    expect(INT32_LAYOUT.add(2 ** 31 - 1, INT32_LAYOUT.one)).toBe(-(2 ** 31));
    expect(INT32_LAYOUT.add(-(2 ** 31), INT32_LAYOUT.negate(INT32_LAYOUT.one))).toBe(2 ** 31 - 1);
    expect(INT32_LAYOUT.negate(-(2 ** 31))).toBe(-(2 ** 31));
    expect(INT32_LAYOUT.negate(0)).toBe(0); // not -0: it would encode the same but compare unequal in tests
  });

  it('wraps int64 arithmetic as Java long does', () => {
    const max = 2n ** 63n - 1n;
    expect(INT64_LAYOUT.add(max, INT64_LAYOUT.one)).toBe(-(2n ** 63n));
    expect(INT64_LAYOUT.negate(-(2n ** 63n))).toBe(-(2n ** 63n));
    expect(INT64_LAYOUT.check(5, 'delta')).toBe(5n);
  });

  it('round-trips through the bytes, and reads missing data as 0', () => {
    expect(INT32_LAYOUT.decode(INT32_LAYOUT.encode(-7), '/n')).toBe(-7);
    expect(INT64_LAYOUT.decode(INT64_LAYOUT.encode(-7n), '/n')).toBe(-7n);
    expect(INT32_LAYOUT.decode(null, '/n')).toBe(0);
    expect(INT64_LAYOUT.decode(new Uint8Array(0), '/n')).toBe(0n);
  });

  it('refuses values outside the width, naming the argument', () => {
    expect(() => INT32_LAYOUT.check(2 ** 31, 'delta')).toThrow(/delta: must be an int32/);
    expect(() => INT64_LAYOUT.check(2n ** 63n, 'expected')).toThrow(/expected: must be an int64/);
  });
});
