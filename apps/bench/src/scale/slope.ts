/**
 * How a cost grows with size: the least-squares slope of log(cost) against log(size). 1 is linear (ten times
 * the size, ten times the cost), 2 quadratic, 0 flat; a step above 1 between two sizes is superlinear growth.
 */

export interface SizePoint {
  size: number;
  cost: number;
}

/** The least-squares slope of y against x (0 when every x is the same). */
export function leastSquaresSlope(points: readonly (readonly [x: number, y: number])[]): number {
  const mean = (k: 0 | 1) => points.reduce((n, p) => n + p[k], 0) / points.length;
  const [meanX, meanY] = [mean(0), mean(1)];
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance > 0 ? covariance / variance : 0;
}

/** The log-log slope of `points` (at least two distinct sizes, every value above 0), else undefined. */
export function logLogSlope(points: readonly SizePoint[]): number | undefined {
  const usable = points.filter((p) => p.size > 0 && p.cost > 0);
  if (new Set(usable.map((p) => p.size)).size < 2) return undefined;
  return leastSquaresSlope(usable.map((p) => [Math.log(p.size), Math.log(p.cost)]));
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
