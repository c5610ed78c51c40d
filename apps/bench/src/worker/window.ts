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
  close(ops: number, errors: number): { ops: number; errors: number; elapsedMs: number; cpuUs: number } {
    const elapsedMs = performance.now() - this.t0;
    const cpu = process.cpuUsage(this.cpu0);
    return { ops: ops - this.ops0, errors: errors - this.errors0, elapsedMs, cpuUs: cpu.user + cpu.system };
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
