/**
 * Whether a cache falls further behind during a steady stream of changes: the lag samples (time since the
 * window opened, lag) are split into thirds by time, and the lag grows when the last third's median is more
 * than twice the first third's and at least MIN_GROWTH_US above it (a few hundred µs either way is noise on a
 * shared machine). The least-squares slope is given too, in µs of lag per second of the window.
 */
import { median } from '../stats.js';
import { leastSquaresSlope } from './slope.js';

export interface LagSample {
  /** since the window opened */
  atMs: number;
  lagUs: number;
}

export interface LagTrend {
  firstThirdP50Us: number;
  lastThirdP50Us: number;
  slopeUsPerS: number;
  grows: boolean;
}

/** Growth below this many µs between the first and last third is not called growth. */
const MIN_GROWTH_US = 1_000;

export function lagTrend(samples: readonly LagSample[]): LagTrend | undefined {
  if (samples.length < 3) return undefined;
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const start = (sorted[0] as LagSample).atMs;
  const span = (sorted[sorted.length - 1] as LagSample).atMs - start;
  if (span <= 0) return undefined;
  const third = (k: number) =>
    sorted.filter((s) => {
      const at = (s.atMs - start) / span;
      return k === 0 ? at < 1 / 3 : at >= 2 / 3;
    });
  const first = third(0);
  const last = third(2);
  if (first.length === 0 || last.length === 0) return undefined;
  const firstThirdP50Us = median(first.map((s) => s.lagUs));
  const lastThirdP50Us = median(last.map((s) => s.lagUs));
  const slopeUsPerS = leastSquaresSlope(sorted.map((s) => [s.atMs, s.lagUs])) * 1000;
  const grows = lastThirdP50Us > 2 * firstThirdP50Us && lastThirdP50Us - firstThirdP50Us >= MIN_GROWTH_US;
  return { firstThirdP50Us, lastThirdP50Us, slopeUsPerS, grows };
}
