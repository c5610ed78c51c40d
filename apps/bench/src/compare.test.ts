import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.js';
import type { CaseSummary } from './stats.js';

const rated = (key: string, median: number | undefined): CaseSummary =>
  ({
    case: { key },
    contenders: [],
    oursVs: {},
    ...(median === undefined ? {} : { oursVsCeiling: { median, min: median, max: median } }),
  }) as unknown as CaseSummary;

describe('compareRuns', () => {
  it('compares ours / ceiling case by case, relative to the mean of the two runs', () => {
    const rows = compareRuns(
      { cases: [rated('getData@256', 1.0), rated('multi@1000', 0.9), rated('latency', undefined)] },
      { cases: [rated('getData@256', 0.98), rated('multi@1000', 0.99), rated('exists@16', 1)] },
    );
    expect(rows.map((r) => r.key)).toEqual(['getData@256', 'multi@1000']);
    expect(rows[0]?.difference).toBeCloseTo(0.02 / 0.99);
    expect(rows[0]?.agrees).toBe(true);
    expect(rows[1]?.difference).toBeCloseTo(0.09 / 0.945);
    expect(rows[1]?.agrees).toBe(false);
  });
});
