/**
 * Retry policies with Curator's formulas (curator/connection-states.md §13.5-13.6) and a retry loop for
 * idempotent calls. Only errors that say "the call may not have happened" are retried: CONNECTIONLOSS,
 * OPERATIONTIMEOUT, SESSIONMOVED, and SESSIONEXPIRED unless `retrySessionExpired: false` (Curator's RetryLoop
 * does the same; its SessionFailedRetryPolicy is the opt-out). A retried SessionExpired only helps with
 * `autoRecreateSession`.
 */

import { ZooKeeperError } from './errors.js';
import { describeError, log } from './logger.js';
import type { Logger } from './types.js';

/** Decides whether to retry, and after how long. */
export interface RetryPolicy {
  /** The sleep in ms before retry number `retryCount` (0-based), or false to give up. */
  allowRetry(retryCount: number, elapsedMs: number): number | false;
}

const MAX_INT = 2147483647;

/** Curator's SleepingRetry: allowed while retryCount < n, with a policy-defined sleep. */
abstract class SleepingRetry implements RetryPolicy {
  constructor(protected readonly n: number) {}
  allowRetry(retryCount: number, elapsedMs: number): number | false {
    return retryCount < this.n ? this.sleepMs(retryCount, elapsedMs) : false;
  }
  protected abstract sleepMs(retryCount: number, elapsedMs: number): number;
}

/** Sleeps `base × max(1, random in [0, 2^(retryCount+1)))`, at most `maxSleepMs`, for up to min(maxRetries, 29) retries. */
export class ExponentialBackoffRetry extends SleepingRetry {
  constructor(
    readonly baseSleepTimeMs: number,
    maxRetries: number,
    readonly maxSleepMs: number = MAX_INT,
    private readonly random: () => number = Math.random,
  ) {
    super(Math.min(maxRetries, 29));
  }
  protected sleepMs(retryCount: number): number {
    const factor = Math.max(1, Math.floor(this.random() * 2 ** (retryCount + 1)));
    return Math.min(this.baseSleepTimeMs * factor, this.maxSleepMs);
  }
}

/** ExponentialBackoffRetry with every sleep capped at `maxSleepTimeMs`. */
export class BoundedExponentialBackoffRetry extends ExponentialBackoffRetry {
  constructor(baseSleepTimeMs: number, maxSleepTimeMs: number, maxRetries: number, random?: () => number) {
    super(baseSleepTimeMs, maxRetries, maxSleepTimeMs, random);
  }
}

/** Up to `n` retries, `sleepMs` apart. */
export class RetryNTimes extends SleepingRetry {
  constructor(
    n: number,
    readonly sleepBetweenRetriesMs: number,
  ) {
    super(n);
  }
  protected sleepMs(): number {
    return this.sleepBetweenRetriesMs;
  }
}

/** One retry after `sleepMs`. */
export class RetryOneTime extends RetryNTimes {
  constructor(sleepMs: number) {
    super(1, sleepMs);
  }
}

/** Retries `sleepMs` apart while less than `maxElapsedMs` has passed since the first try. */
export class RetryUntilElapsed implements RetryPolicy {
  constructor(
    readonly maxElapsedTimeMs: number,
    readonly sleepMsBetweenRetries: number,
  ) {}
  allowRetry(_retryCount: number, elapsedMs: number): number | false {
    return elapsedMs < this.maxElapsedTimeMs ? this.sleepMsBetweenRetries : false;
  }
}

/** Retries forever, `intervalMs` apart (must be > 0). */
export class RetryForever implements RetryPolicy {
  constructor(readonly retryIntervalMs: number) {
    if (!(retryIntervalMs > 0)) throw new RangeError('retryIntervalMs must be > 0');
  }
  allowRetry(): number {
    return this.retryIntervalMs;
  }
}

const RETRYABLE = new Set(['CONNECTIONLOSS', 'OPERATIONTIMEOUT', 'SESSIONMOVED']);

/** True when the loop may repeat a call that failed with `error`. */
export function isRetryable(error: unknown, retrySessionExpired = false): boolean {
  if (!ZooKeeperError.isInstance(error)) return false;
  return RETRYABLE.has(error.code) || (retrySessionExpired && error.code === 'SESSIONEXPIRED');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` and retries it under `policy` while it fails with a retryable error (SessionExpired included
 * unless `retrySessionExpired` is false). Use it only for calls that are safe to repeat (a create may have
 * succeeded before its connection was lost).
 */
export async function retry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  options: { retrySessionExpired?: boolean; signal?: AbortSignal; logger?: Logger } = {},
): Promise<T> {
  const started = Date.now();
  for (let retryCount = 0; ; retryCount++) {
    try {
      return await fn();
    } catch (error) {
      if (!isRetryable(error, options.retrySessionExpired ?? true)) throw error;
      const delay = policy.allowRetry(retryCount, Date.now() - started);
      if (delay === false) throw error;
      log(
        options.logger,
        'debug',
        () => `zookeeper: retry ${retryCount + 1} in ${delay} ms after ${describeError(error)}`,
      );
      await sleep(delay, options.signal);
    }
  }
}
