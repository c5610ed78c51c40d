/**
 * The saturation rate of a round and the open-loop rates derived from it (issue 15, item 2: latency must
 * not pay for throughput). Before the first open-loop cell of each round, one calibration cell drives
 * getData with the greedy raw limit at {@link CALIBRATION_IN_FLIGHT} in flight: what the server answers when
 * a client (at almost no cost of its own) keeps it busy. The `latency50` and `latency90` cells then send
 * getData at 50% and 90% of that rate. Measuring it per round, right before those cells, keeps up with a
 * shared machine whose speed moves from one minute to the next. Pure logic; the cell itself runs in main.ts.
 */
import type { CellResult, CellSpec, ContenderId } from './types.js';

/** Requests in flight of the calibration cell (the middle depth, where the server is saturated). */
export const CALIBRATION_IN_FLIGHT = 256;
/** The contender that calibrates: the greedy raw limit (no read pacing, almost no client cost). */
export const CALIBRATION_CONTENDER: ContenderId = 'raw';
/** Below this, a measured rate is no basis for an open loop (a broken or nearly stopped server). */
export const MIN_OPEN_LOOP_RATE = 10;

/** The saturation rate one round measured (or why it could not), as recorded in results.json. */
export interface SaturationMeasurement {
  round: number;
  contender: ContenderId;
  op: 'getData';
  inFlight: number;
  /** completed getData per second in the calibration window; absent when the cell failed */
  opsPerSec?: number;
  /** client CPU per op of the calibration cell, µs */
  cpuUsPerOp?: number;
  /** why no rate was measured */
  error?: string;
}

/** The spec of a round's calibration cell: greedy raw getData at 256 in flight, with the run's timings. */
export function calibrationSpec(
  base: Pick<CellSpec, 'warmupMs' | 'durationMs' | 'connectString' | 'paths' | 'dataSize'>,
  round: number,
): CellSpec {
  return {
    ...base,
    contender: CALIBRATION_CONTENDER,
    scenario: 'saturation',
    kind: 'throughput',
    op: 'getData',
    inFlight: CALIBRATION_IN_FLIGHT,
    cellId: `r${round}sat`,
  };
}

/** What a calibration cell measured. */
export function saturationFrom(round: number, result: CellResult): SaturationMeasurement {
  const base = {
    round,
    contender: CALIBRATION_CONTENDER,
    op: 'getData',
    inFlight: CALIBRATION_IN_FLIGHT,
  } as const;
  if (!result.ok) return { ...base, error: result.error };
  if (result.ops <= 0 || result.elapsedMs <= 0) return { ...base, error: 'no getData completed' };
  if (result.errors > 0) return { ...base, error: `${result.errors} getData failed in the window` };
  return {
    ...base,
    opsPerSec: (result.ops * 1000) / result.elapsedMs,
    cpuUsPerOp: result.cpuUs / result.ops,
  };
}

/**
 * The open-loop rate (requests per second, a whole number) at `share` of the saturation rate, or an error
 * message when there is no usable saturation rate (the cells of that round then fail with it).
 */
export function openLoopRate(
  saturation: SaturationMeasurement | undefined,
  share: number,
): { rate: number } | { error: string } {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  if (!saturation) return { error: 'no saturation rate measured in this round' };
  if (saturation.opsPerSec === undefined) {
    return { error: `saturation calibration failed: ${saturation.error ?? 'no result'}` };
  }
  const rate = Math.round(saturation.opsPerSec * share);
  if (rate < MIN_OPEN_LOOP_RATE) {
    return { error: `saturation rate ${saturation.opsPerSec.toFixed(1)}/s is too low for an open loop` };
  }
  return { rate };
}
