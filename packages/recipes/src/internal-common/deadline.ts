/**
 * One timeout and one AbortSignal for a whole blocking call: every await inside the call goes through
 * `guard`, which gives up when either fires.
 */
import { validateSignal, validateTimeout } from './validate.js';

/** Options every blocking recipe call takes. */
export interface WaitOptions {
  /** Give up after this many milliseconds (the call then reports a timeout, as Curator returns false). */
  timeoutMs?: number;
  /** Abort the call: it rejects with the signal's reason and leaves no node behind. */
  signal?: AbortSignal;
}

/** Thrown inside a recipe when its deadline passes; callers turn it into their "timed out" result. */
export class DeadlineExpired extends Error {
  constructor() {
    super('deadline expired');
    this.name = 'DeadlineExpired';
  }
}

/** The remaining time and the abort signal of one blocking call. */
export class Deadline {
  readonly signal: AbortSignal | undefined;
  readonly #endsAt: number;

  private constructor(endsAt: number, signal: AbortSignal | undefined) {
    this.#endsAt = endsAt;
    this.signal = signal;
  }

  /** Validates the options (throwing a typed error on bad input) and starts the clock. */
  static of(options: WaitOptions | undefined): Deadline {
    const timeoutMs = validateTimeout(options?.timeoutMs);
    const signal = validateSignal(options?.signal);
    return new Deadline(timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs, signal);
  }

  /** Milliseconds left; Infinity without a timeout. */
  remainingMs(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  /** The same deadline as options for a nested call. */
  toOptions(): WaitOptions {
    const remaining = this.remainingMs();
    return {
      ...(Number.isFinite(this.#endsAt) ? { timeoutMs: remaining } : {}),
      ...(this.signal ? { signal: this.signal } : {}),
    };
  }

  /** Throws the abort reason if aborted, DeadlineExpired if the time is up. */
  check(): void {
    this.signal?.throwIfAborted();
    if (this.#endsAt !== Number.POSITIVE_INFINITY && Date.now() >= this.#endsAt) throw new DeadlineExpired();
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
    const remaining = this.remainingMs();
    if (!this.signal && !Number.isFinite(remaining)) return promise;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => {
        cleanup();
        reject(this.signal?.reason);
      };
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
      };
      if (Number.isFinite(remaining)) {
        timer = setTimeout(() => {
          cleanup();
          reject(new DeadlineExpired());
        }, remaining);
      }
      this.signal?.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error: unknown) => {
          cleanup();
          reject(error);
        },
      );
    });
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
