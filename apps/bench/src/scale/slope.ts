/**
 * How a cost grows with size: the least-squares slope of log(cost) against log(size). 1 is linear (ten times
 * the size, ten times the cost), 2 quadratic, 0 flat; a step above 1 between two sizes is superlinear growth.
 */

export interface SizePoint {
  size: number;
  cost: number;
}

/** The log-log slope of `points` (at least two distinct sizes, every value above 0), else undefined. */
export function logLogSlope(points: readonly SizePoint[]): number | undefined {
  const usable = points.filter((p) => p.size > 0 && p.cost > 0);
  if (new Set(usable.map((p) => p.size)).size < 2) return undefined;
  const xs = usable.map((p) => Math.log(p.size));
  const ys = usable.map((p) => Math.log(p.cost));
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < xs.length; i++) {
    covariance += ((xs[i] as number) - meanX) * ((ys[i] as number) - meanY);
    variance += ((xs[i] as number) - meanX) ** 2;
  }
  return covariance / variance;
}

/** The slope between each pair of neighbouring sizes (sorted by size), where a superlinear step shows. */
export function stepSlopes(points: readonly SizePoint[]): { from: number; to: number; slope: number }[] {
  const sorted = [...points].filter((p) => p.size > 0 && p.cost > 0).sort((a, b) => a.size - b.size);
  const steps: { from: number; to: number; slope: number }[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as SizePoint;
    const b = sorted[i] as SizePoint;
    if (a.size === b.size) continue;
    steps.push({ from: a.size, to: b.size, slope: Math.log(b.cost / a.cost) / Math.log(b.size / a.size) });
  }
  return steps;
}
