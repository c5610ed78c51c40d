/**
 * One timeout and one AbortSignal for a whole call made of several steps (requests, waits): each step gets
 * the time that is left, so the call as a whole gives up on time.
 */
import type { InvalidArgument } from './error-family.js';
import { checkSignal, checkTimeout } from './validate.js';

/** The options a blocking call takes. */
export interface DeadlineOptions {
  /** Give up after this many milliseconds. */
  timeoutMs?: number | undefined;
  /** Abort the call: it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Thrown by {@link Deadline.check} and {@link Deadline.guard} when the time is up; callers turn it into their own result. */
export class DeadlineExpired extends Error {
  constructor() {
    super('deadline expired');
    this.name = 'DeadlineExpired';
  }
}

/** The remaining time and the abort signal of one call. */
export class Deadline {
  /** No limit and no signal: for background work (a repair after a watch fired). */
  static readonly NONE = new Deadline(Number.POSITIVE_INFINITY, undefined);

  readonly signal: AbortSignal | undefined;
  readonly #endsAt: number;

  protected constructor(endsAt: number, signal: AbortSignal | undefined) {
    this.#endsAt = endsAt;
    this.signal = signal;
  }

  /** Checks the options (the package's bad-argument error on bad ones) and starts the clock. */
  static of(options: DeadlineOptions | undefined, invalid: InvalidArgument): Deadline {
    const timeoutMs = checkTimeout(options?.timeoutMs, invalid);
    const signal = checkSignal(options?.signal, invalid);
    return new Deadline(timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs, signal);
  }

  /** True when the call has a time limit. */
  get bounded(): boolean {
    return Number.isFinite(this.#endsAt);
  }

  /** Milliseconds left; Infinity without a timeout. */
  remainingMs(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  /**
   * Options for the next request of the call: what is left of the time (at least 1 ms: the client reads 0
   * as no timeout) and the signal. Throws the abort reason once aborted.
   */
  toOptions(): { timeoutMs?: number; signal?: AbortSignal } {
    this.signal?.throwIfAborted();
    return {
      ...(this.bounded ? { timeoutMs: Math.max(1, this.#endsAt - Date.now()) } : {}),
      ...(this.signal ? { signal: this.signal } : {}),
    };
  }

  /** Throws the abort reason if aborted, DeadlineExpired if the time is up. */
  check(): void {
    this.signal?.throwIfAborted();
    if (this.bounded && Date.now() >= this.#endsAt) throw new DeadlineExpired();
  }

  /**
   * Waits for `promise`, or rejects with the abort reason or DeadlineExpired, whichever comes first. The
   * promise keeps running when the guard gives up; callers clean up its result where it matters.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    try {
      this.check();
    } catch (error) {
      promise.catch(() => {});
      return Promise.reject(error);
    }
    const signal = this.signal;
    if (signal === undefined && !this.bounded) return promise;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (finish: () => void): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish();
      };
      const onAbort = (): void => settle(() => reject(signal?.reason));
      if (this.bounded)
        timer = setTimeout(() => settle(() => reject(new DeadlineExpired())), this.remainingMs());
      signal?.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }
}
