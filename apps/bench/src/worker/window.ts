/** What a measured window saw: operations and errors counted in it, its wall time and the CPU time spent. */
export interface WindowFigures {
  ops: number;
  errors: number;
  elapsedMs: number;
  cpuUs: number;
}

/**
 * The measured window: wall time and this process's CPU time (user + system, every thread, so a native
 * client's I/O thread counts too) between `open()` and `close()`.
 */
export class MeasureWindow {
  private t0 = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private ops0 = 0;
  private errors0 = 0;

  /** Marks the start; `ops` and `errors` are the counters' values at that moment. */
  open(ops: number, errors: number): void {
    this.ops0 = ops;
    this.errors0 = errors;
    this.cpu0 = process.cpuUsage();
    this.t0 = performance.now();
  }

  /** Marks the end and returns what happened in between. */
  close(ops: number, errors: number): WindowFigures {
    const elapsedMs = performance.now() - this.t0;
    const cpu = process.cpuUsage(this.cpu0);
    return { ops: ops - this.ops0, errors: errors - this.errors0, elapsedMs, cpuUs: cpu.user + cpu.system };
  }
}

/**
 * How many requests of an open loop at `rate` per second are due `elapsedMs` after it started: request k
 * (from 1) is due at k / rate.
 */
export function requestsDue(elapsedMs: number, rate: number): number {
  // whole microseconds: (start + 1300) - start is 1299.9999… for some fractional starts, one request short
  const elapsedUs = Math.round(elapsedMs * 1000);
  return Math.max(0, Math.floor((elapsedUs * rate) / 1_000_000));
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits, polling every `pollMs`, until `inFlight()` is 0 or `timeoutMs` have passed: a stopped loop's
 * requests finish before the next turn, or before the session closes (so that none ends as an error).
 */
export async function untilIdle(inFlight: () => number, pollMs: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (inFlight() > 0 && Date.now() < deadline) await sleep(pollMs);
}

/** A recorder that counts only while a cell's measured window is open. */
export interface Recording {
  recording: boolean;
}

/**
 * A cell's two phases on one clock: warm-up, then the measured window. The window opens, and the recorders
 * start, at the first {@link openWhenWarm} after the warm-up; {@link close} stops them.
 */
export class CellPhases {
  /** When the cell started (performance.now()). */
  readonly start = performance.now();
  /** When warm-up + duration are over. */
  readonly end: number;
  private readonly window = new MeasureWindow();
  private opened = false;

  constructor(
    private readonly spec: { warmupMs: number; durationMs: number },
    private readonly recorders: Recording[],
  ) {
    this.end = this.start + spec.warmupMs + spec.durationMs;
  }

  /** True until warm-up + duration have passed. */
  get running(): boolean {
    return performance.now() < this.end;
  }

  /**
   * An open loop's request count due by `now` at `rate` per second: request k (from 1) is due at
   * start + k / rate, and none after the end, so a late last tick sends only what was due.
   */
  due(now: number, rate: number): number {
    return requestsDue(Math.min(now, this.end) - this.start, rate);
  }

  /** Opens the window if the warm-up is over and it is not open yet; `ops` and `errors` are the counters now. */
  openWhenWarm(ops: number, errors: number, now = performance.now()): void {
    if (this.opened || now - this.start < this.spec.warmupMs) return;
    this.opened = true;
    for (const recorder of this.recorders) recorder.recording = true;
    this.window.open(ops, errors);
  }

  /**
   * Ends the window and stops the recorders. A cell whose one step outlasted the whole cell never saw its
   * warm-up end inside the loop: its window opens here, so it measures nothing rather than garbage.
   */
  close(ops: number, errors: number): WindowFigures {
    if (!this.opened) this.window.open(ops, errors);
    for (const recorder of this.recorders) recorder.recording = false;
    return this.window.close(ops, errors);
  }
}
