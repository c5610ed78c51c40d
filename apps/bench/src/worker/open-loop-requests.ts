/**
 * The requests of an open loop (the latency cells) and where they go: one shape for a client driver and for
 * the raw limit's socket, so that both pace, time and count them the same way, in turns or not.
 */
import type { OpenLoopRecorders } from './latency-recorder.js';
import { untilIdle } from './window.js';

/** Called once a request's reply is in: `ok` false when it carried an error. */
export type Reply = (ok: boolean) => void;

/** Where an open loop sends its getData. */
export interface OpenLoopTarget {
  /** Sends one getData; `done` once its reply is in. */
  send(done: Reply): void;
  /** Sends one tick's requests (`sendAll`) together: the raw limit corks them into one write. */
  batch?(sendAll: () => void): void;
}

/** The hrtime (ns) of the performance.now() time `at`: a turn's planned start on the latencies' clock. */
export function hrtimeAt(at: number): bigint {
  return process.hrtime.bigint() - BigInt(Math.round((performance.now() - at) * 1e6));
}

/** An open loop's requests: sent, timed, counted. */
export class OpenLoopRequests {
  completed = 0;
  errors = 0;
  outstanding = 0;
  /** runs after each reply, with the counters updated (a turn's gate counts its window from them) */
  onReply: (() => void) | undefined;

  constructor(private readonly target: OpenLoopTarget) {}

  /** Sends `count` requests together (one write for the raw limit): `sendOne` sends the next of them. */
  sendBatch(count: number, sendOne: () => void): void {
    if (count <= 0) return;
    const all = () => {
      for (let i = 0; i < count; i++) sendOne();
    };
    if (this.target.batch) this.target.batch(all);
    else all();
  }

  /**
   * Sends one request that was due at `dueNs` (hrtime). `into` records its send lag now and its latencies
   * when its reply comes (from the due time: a late send is paid for); without it the request is not recorded.
   */
  send(dueNs: bigint, into: OpenLoopRecorders | undefined): void {
    const sentNs = process.hrtime.bigint();
    into?.sendLag.recordBetween(dueNs, sentNs);
    this.outstanding++;
    this.target.send((ok) => {
      const doneNs = process.hrtime.bigint();
      this.outstanding--;
      if (ok) {
        this.completed++;
        into?.recordReply(dueNs, sentNs, doneNs);
      } else this.errors++;
      this.onReply?.();
    });
  }

  /** Waits (at most `timeoutMs`) until no request is in flight, so that none ends as an error at close. */
  drain(timeoutMs: number): Promise<void> {
    return untilIdle(() => this.outstanding, 5, timeoutMs);
  }
}
