/** The measured window of a cell, latency histograms, and the small waits every worker uses. */
import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '../types.js';

/** What a measured window saw. */
export interface WindowFigures {
  ops: number;
  errors: number;
  elapsedMs: number;
  cpuUs: number;
}

/** Wall time and this process's CPU (user + system, every thread) between open() and close(). */
export class MeasureWindow {
  private t0 = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private ops0 = 0;
  private errors0 = 0;

  open(ops: number, errors: number): void {
    this.ops0 = ops;
    this.errors0 = errors;
    this.cpu0 = process.cpuUsage();
    this.t0 = performance.now();
  }

  close(ops: number, errors: number): WindowFigures {
    const elapsedMs = performance.now() - this.t0;
    const cpu = process.cpuUsage(this.cpu0);
    return { ops: ops - this.ops0, errors: errors - this.errors0, elapsedMs, cpuUs: cpu.user + cpu.system };
  }
}

/** An HDR histogram of microseconds (1 µs to 60 s, 3 significant digits) that counts only while recording. */
export class LatencyRecorder {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
  recording = false;

  /** Records the time from `startNs` to `endNs` (process.hrtime.bigint() readings, end default now). */
  record(startNs: bigint, endNs = process.hrtime.bigint()): void {
    if (this.recording) this.histogram.recordValue(Math.max(1, Number((endNs - startNs) / 1000n)));
  }

  add(other: LatencyRecorder): void {
    this.histogram.add(other.histogram);
  }

  summary(): LatencySummary {
    const h = this.histogram;
    return {
      count: h.totalCount,
      p50: h.getValueAtPercentile(50),
      p90: h.getValueAtPercentile(90),
      p99: h.getValueAtPercentile(99),
      p999: h.getValueAtPercentile(99.9),
      max: h.maxValue,
    };
  }
}

/**
 * A cell that runs alone (sessions, watches, recipes): `step` (one op, which times itself on `recorder`) again
 * and again through the warm-up, then the window, opened at the first step after the warm-up; a window whose
 * first step outlasted the whole cell measures nothing rather than garbage.
 */
export async function repeatAlone(
  spec: { warmupMs: number; durationMs: number },
  step: (recorder: LatencyRecorder) => Promise<void>,
) {
  const recorder = new LatencyRecorder();
  const window = new MeasureWindow();
  const start = performance.now();
  let completed = 0;
  while (performance.now() < start + spec.warmupMs + spec.durationMs) {
    if (!recorder.recording && performance.now() - start >= spec.warmupMs) {
      recorder.recording = true;
      window.open(completed, 0);
    }
    await step(recorder);
    completed++;
  }
  if (!recorder.recording) window.open(completed, 0);
  recorder.recording = false;
  return { ok: true as const, ...window.close(completed, 0), latency: recorder.summary() };
}

/** Sleeps through the warm-up, then measures `durationMs` of `count()` while the cell's loops run. */
export async function timedWindow(
  spec: { warmupMs: number; durationMs: number },
  count: () => number,
  onOpen?: () => void,
): Promise<WindowFigures> {
  const window = new MeasureWindow();
  await sleep(spec.warmupMs);
  onOpen?.();
  window.open(count(), 0);
  await sleep(spec.durationMs);
  return window.close(count(), 0);
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `inFlight()` is 0 or `timeoutMs` passed, so that no request ends as an error at close. */
export async function untilIdle(inFlight: () => number, pollMs: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (inFlight() > 0 && Date.now() < deadline) await sleep(pollMs);
}

/** Requests of an open loop at `rate` per second due `elapsedMs` after its start (request k at k / rate). */
export function requestsDue(elapsedMs: number, rate: number): number {
  // whole microseconds: (start + 1300) - start can be 1299.9999…, one request short
  return Math.max(0, Math.floor((Math.round(elapsedMs * 1000) * rate) / 1_000_000));
}

/** The message of an error-like value. */
export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Rejects after `ms` with a message naming what did not happen in time. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
