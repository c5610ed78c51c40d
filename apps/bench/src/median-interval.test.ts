import { describe, expect, it } from 'vitest';
import { medianInterval } from './median-interval.js';

describe('medianInterval', () => {
  it('takes the textbook order statistics: the 4th and 12th of 15, the 1st and 8th of 8', () => {
    const fifteen = Array.from({ length: 15 }, (_, i) => 15 - i); // unsorted on purpose
    expect(medianInterval(fifteen)).toMatchObject({ low: 4, high: 12, count: 15 });
    expect(medianInterval(fifteen)?.coverage).toBeCloseTo(0.9648, 4);
    expect(medianInterval([1, 2, 3, 4, 5, 6, 7, 8])).toMatchObject({ low: 1, high: 8 });
  });

  it('gives no interval where even the extremes cover less than 95%', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([1, 2, 3, 4, 5, 6])).toMatchObject({ low: 1, high: 6 });
  });

  it('narrows as the sample grows', () => {
    const noisy = (n: number) => Array.from({ length: n }, (_, i) => 1 + 0.2 * Math.sin(i * 12.9898));
    const width = (n: number) => {
      const i = medianInterval(noisy(n));
      return i ? i.high - i.low : Number.POSITIVE_INFINITY;
    };
    expect(width(100)).toBeLessThan(width(15));
    expect(width(400)).toBeLessThan(width(100));
  });
});
