/**
 * How far the median of a sample may be from the true one: the distribution-free interval between two
 * order statistics (the number of values below the true median is Binomial(n, 1/2)), so no assumption on
 * how ratios are spread, and no randomness: the same run always reports the same interval.
 *
 * Why the bench reports it: on a noisy machine one turn's ours / ceiling moves by ±20%, so a median of 15
 * pairs is only known to a few per cent, and a case reading 0.93 may not differ from one reading 0.96.
 */

/** The confidence an interval is built for. */
const CONFIDENCE = 0.95;

/** A median's interval: the values at the two order statistics, and its actual coverage (≥ 95%). */
export interface MedianInterval {
  low: number;
  high: number;
  coverage: number;
  /** how many values it was built from */
  count: number;
}

/** P(X <= k) for X ~ Binomial(n, 1/2). */
function binomialCdf(k: number, n: number): number {
  let term = 0.5 ** n; // P(X = 0)
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/**
 * The narrowest symmetric interval [x(j), x(n+1-j)] (1-based order statistics) that covers the median with
 * at least 95% confidence; undefined below 6 values, where even [min, max] covers less than 95%.
 */
export function medianInterval(values: readonly number[]): MedianInterval | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  // coverage of [x(j), x(n+1-j)] is 1 - 2 * P(X <= j - 1)
  let j = 0;
  while (j + 1 <= n / 2 && 1 - 2 * binomialCdf(j, n) >= CONFIDENCE) j++;
  if (j === 0) return undefined;
  return {
    low: sorted[j - 1] as number,
    high: sorted[n - j] as number,
    coverage: 1 - 2 * binomialCdf(j - 1, n),
    count: n,
  };
}
