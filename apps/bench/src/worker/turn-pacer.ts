/**
 * An open loop's schedule within one turn (TurnSchedule in types.ts). Request k (from 1) is due at the turn's
 * planned start + k / rate, and none is due after the turn's end, so the loop sends nothing into the gap that
 * was not due inside its turn. A request is recorded when it was *due* between the end of the turn's ramp and
 * the turn's end, whenever its reply comes: choosing by the intended send time (not by when the reply lands)
 * keeps the slowest requests of a turn, those still out at its end, in the percentiles (no coordinated
 * omission), and leaves out those due while the loop was still settling.
 */
import { requestsDue } from './window.js';

/** One turn on the performance.now() clock: its planned start, the end of its ramp, and its end. */
export interface TurnWindow {
  startAt: number;
  recordFrom: number;
  endAt: number;
}

export class TurnPacer {
  private readonly recordFromUs: number;
  private readonly endUs: number;

  constructor(
    readonly rate: number,
    readonly window: TurnWindow,
  ) {
    // whole microseconds from the start, as requestsDue counts them
    this.recordFromUs = Math.round((window.recordFrom - window.startAt) * 1000);
    this.endUs = Math.round((window.endAt - window.startAt) * 1000);
  }

  /** Requests due by `now` (performance.now()), none after the turn's end: a late tick sends what was due. */
  due(now: number): number {
    return requestsDue(Math.min(now, this.window.endAt) - this.window.startAt, this.rate);
  }

  /** Nanoseconds from the turn's start at which request k is due. */
  dueAfterNs(k: number): number {
    return (k * 1e9) / this.rate;
  }

  /** Whether request k's latency counts: due at or after the ramp's end and before the turn's end. */
  recorded(k: number): boolean {
    const dueUs = (k * 1e6) / this.rate;
    return dueUs >= this.recordFromUs && dueUs < this.endUs;
  }
}
