/** The retry settings of the distributed atomics' two phases (Curator's RetryNTimes), and their check. */
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';

/** How often an update is tried again after losing a round. */
export interface AtomicRetry {
  /** Extra attempts after the first one (default 10 for the optimistic phase, 0 under the lock). */
  maxRetries?: number;
  /** Pause between attempts in milliseconds (default 10 for the optimistic phase, 0 under the lock). */
  sleepMs?: number;
}

/** A checked {@link AtomicRetry}. */
export interface RetrySettings {
  readonly maxRetries: number;
  readonly sleepMs: number;
}

/** Checks `retry` (named `what` in errors), filling in `defaults`. */
export function checkRetry(retry: unknown, defaults: RetrySettings, what: string): RetrySettings {
  if (retry === undefined) return defaults;
  if (typeof retry !== 'object' || retry === null) {
    throw new InvalidRecipeArgumentError(what, 'must be an object');
  }
  const { maxRetries = defaults.maxRetries, sleepMs = defaults.sleepMs } = retry as AtomicRetry;
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new InvalidRecipeArgumentError(`${what}.maxRetries`, 'must be an integer ≥ 0');
  }
  if (typeof sleepMs !== 'number' || !Number.isFinite(sleepMs) || sleepMs < 0) {
    throw new InvalidRecipeArgumentError(`${what}.sleepMs`, 'must be a finite number ≥ 0');
  }
  return { maxRetries, sleepMs };
}
