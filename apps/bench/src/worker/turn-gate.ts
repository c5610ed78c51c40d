/**
 * A turn's measured window, kept by the loop itself: the loop reports its counters after each completion (or
 * batch of completions), and the gate counts those that came between the window's open and close by the
 * clock read then. The loop stops issuing at the first completion past the close.
 *
 * Timers cannot do this for every client: a timer fires only when the event loop is free, and
 * node-zookeeper-client, with more replies in flight than one 64 KiB read holds, handles replies for hundreds
 * of milliseconds without a break (bench README, "Windows kept by the completions"); a window opened and closed by timers then
 * measured 0 ms or ran on into the next contender's turn, and its requests kept going there too.
 */
import type { WindowFigures } from './window.js';

export class TurnGate {
  private opened = false;
  private closed = false;
  private opsAtOpen = 0;
  private errorsAtOpen = 0;
  private openedAt = 0;
  private cpuAtOpen: NodeJS.CpuUsage = { user: 0, system: 0 };
  private opsAtLast = 0;
  private errorsAtLast = 0;
  private lastAt = 0;
  private cpuUs = 0;

  /** `openAt` and `closeAt` are performance.now() times. */
  constructor(
    readonly openAt: number,
    readonly closeAt: number,
  ) {}

  /**
   * The loop's counters (totals so far) right after a completion or a batch of them. False once the turn is
   * over: the loop then issues nothing more.
   */
  note(completed: number, errors: number): boolean {
    if (this.closed) return false;
    const now = performance.now();
    if (now < this.openAt) return true;
    if (now > this.closeAt) {
      this.close();
      return false;
    }
    if (!this.opened) {
      // the window starts at the first completion after it opens; that completion is before it
      this.opened = true;
      this.openedAt = this.lastAt = now;
      this.opsAtOpen = this.opsAtLast = completed;
      this.errorsAtOpen = this.errorsAtLast = errors;
      this.cpuAtOpen = process.cpuUsage();
    } else {
      this.lastAt = now;
      this.opsAtLast = completed;
      this.errorsAtLast = errors;
    }
    return true;
  }

  /** Ends the window (at the turn's end when no completion came past it); idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opened) {
      const cpu = process.cpuUsage(this.cpuAtOpen);
      this.cpuUs = cpu.user + cpu.system;
    }
  }

  /**
   * The window: the completions after the first one past its open, up to the last one before its close, over
   * the time between those two. Empty when none came inside it.
   */
  window(): WindowFigures {
    return {
      ops: this.opsAtLast - this.opsAtOpen,
      errors: this.errorsAtLast - this.errorsAtOpen,
      elapsedMs: this.lastAt - this.openedAt,
      cpuUs: this.cpuUs,
    };
  }
}
