/**
 * PromotedToLock: the second phase of Curator's distributed atomics (`PromotedToLock` and
 * `DistributedAtomicValue.tryWithMutex`). When every optimistic round of an update lost to a concurrent writer,
 * the update is tried again while holding an InterProcessMutex at `lockPath`, so that contenders take
 * turns instead of colliding. The writes under the lock are still versioned: a writer that does not take the
 * lock (an atomic without promotion, or a plain setData) can still win a round.
 */
import { sleep } from '../internal-common/deadline.js';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { validateRecipePath, validateTimeout } from '../internal-common/validate.js';
import type { InterProcessLock } from '../locks/interprocess-lock.js';
import { type AtomicRetry, checkRetry, type RetrySettings } from './atomic-retry.js';

/** Where and how long an update is retried under a lock once its optimistic rounds failed (Curator's builder). */
export interface PromotedToLockOptions {
  /** The InterProcessMutex's path (Curator's `lockPath`, required); share it with every contender, Java or Node. */
  lockPath: string;
  /** Retries of the update while holding the lock (Curator's default: none, one try under the lock). */
  retry?: AtomicRetry;
  /** Gives up taking the lock after this many milliseconds (the update then fails); default: wait for it. */
  timeoutMs?: number;
}

/** Checked promotion settings. */
export interface PromotionSettings {
  readonly lockPath: string;
  readonly retry: RetrySettings;
  readonly timeoutMs: number | undefined;
}

/** Checks the `promotedToLock` option; undefined means optimistic mode only. */
export function checkPromotion(options: unknown): PromotionSettings | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRecipeArgumentError('promotedToLock', 'must be an object with a lockPath');
  }
  const { lockPath, retry, timeoutMs } = options as PromotedToLockOptions;
  return {
    lockPath: validateRecipePath(lockPath, 'promotedToLock.lockPath'),
    retry: checkRetry(retry, { maxRetries: 0, sleepMs: 0 }, 'promotedToLock.retry'),
    timeoutMs: validateTimeout(timeoutMs),
  };
}

/** What the promoted phase did. */
export interface PromotedOutcome {
  readonly succeeded: boolean;
  /** Tries made under the lock (0 when the lock was not had in time). */
  readonly tries: number;
  readonly timeMs: number;
}

/**
 * Takes `mutex` (an InterProcessMutex at the settings' `lockPath`), runs `tryOnce` until it succeeds or the
 * retry settings are used up, and releases the lock. A lock not had within the timeout is an unsuccessful
 * outcome with no tries, as Curator's. Each phase must pass a mutex object of its own: our locks are
 * reentrant per object, and two updates running at once in this process must exclude each other as two of
 * Curator's threads do.
 */
export async function runPromoted(
  mutex: InterProcessLock,
  settings: PromotionSettings,
  tryOnce: () => Promise<boolean>,
  signal: AbortSignal,
): Promise<PromotedOutcome> {
  const startedAt = performance.now();
  const timeMs = () => performance.now() - startedAt;
  const acquired = await mutex.acquire({
    signal,
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
  });
  if (!acquired) return { succeeded: false, tries: 0, timeMs: timeMs() };
  try {
    for (let tries = 1; ; tries++) {
      signal.throwIfAborted();
      if (await tryOnce()) return { succeeded: true, tries, timeMs: timeMs() };
      if (tries > settings.retry.maxRetries) return { succeeded: false, tries, timeMs: timeMs() };
      await sleep(settings.retry.sleepMs);
    }
  } finally {
    await mutex.release();
  }
}
