/**
 * One `timeoutMs` and one `AbortSignal` for a whole call made of several requests: each request gets the time
 * that is left, so the call as a whole gives up on time. No timer of its own: the client's per-call timeout
 * does the waiting.
 */
import { validateSignal, validateTimeout } from './validate.js';

/** Options every blocking discovery call takes. */
export interface CallOptions {
  /** Give up after this many milliseconds (the client's OperationTimeoutError). */
  timeoutMs?: number;
  /** Abort the call: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The clock and signal of one call. */
export class Deadline {
  readonly #endsAt: number;
  readonly #signal: AbortSignal | undefined;

  private constructor(endsAt: number, signal: AbortSignal | undefined) {
    this.#endsAt = endsAt;
    this.#signal = signal;
  }

  /** No limit and no signal: for background work (a repair after a watch fired). */
  static readonly NONE = new Deadline(Number.POSITIVE_INFINITY, undefined);

  /** Checks the options (a typed error on bad ones) and starts the clock. */
  static of(options: CallOptions | undefined): Deadline {
    const timeoutMs = validateTimeout(options?.timeoutMs);
    const signal = validateSignal(options?.signal);
    return new Deadline(timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs, signal);
  }

  /** Options for the next request: what is left of the time (at least 1 ms: the client reads 0 as none), and the signal. */
  options(): { timeoutMs?: number; signal?: AbortSignal } {
    this.#signal?.throwIfAborted();
    return {
      ...(Number.isFinite(this.#endsAt) ? { timeoutMs: Math.max(1, this.#endsAt - Date.now()) } : {}),
      ...(this.#signal ? { signal: this.#signal } : {}),
    };
  }
}
