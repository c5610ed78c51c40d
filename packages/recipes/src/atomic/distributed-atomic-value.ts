/**
 * DistributedAtomicValue: optimistic compare-and-set on one znode's data version (Curator's
 * `org.apache.curator.framework.recipes.atomic.DistributedAtomicValue`, curator/counters.md §12.3).
 *
 * Each attempt reads the data and its version, computes the new bytes, then creates the node (when absent) or
 * writes with `version = stat.version`. NodeExists, BadVersion and NoNode mean "someone else won this round":
 * the attempt is repeated while the retry settings allow, and the result's `succeeded` says how it ended.
 * With `promotedToLock`, an update that lost every optimistic round is tried again under a lock (Curator's
 * mutex promotion, see promoted-to-lock.ts). Like Curator, losing every round is not an exception: callers must
 * check `succeeded`.
 */
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { sleep } from '../internal-common/deadline.js';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { validateRecipePath, validateSignal } from '../internal-common/validate.js';
import type { RecipeStat } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode } from '../internal-common/zk-errors.js';
import { InterProcessMutex } from '../locks/interprocess-mutex.js';
import { DisposeScope } from '../shared/dispose-scope.js';
import type { ValueClient } from '../shared/value-client.js';
import { type AtomicRetry, checkRetry } from './atomic-retry.js';
import {
  checkPromotion,
  type PromotedToLockOptions,
  type PromotionSettings,
  runPromoted,
} from './promoted-to-lock.js';

export type { AtomicRetry } from './atomic-retry.js';

/** The outcome of an atomic operation (Curator's AtomicValue). */
export interface AtomicValue<T> {
  /** False when every attempt lost to a concurrent writer; pre and post values are then the last seen. */
  readonly succeeded: boolean;
  /** The value before the operation. */
  readonly preValue: T;
  /** The value after the operation (the new value when it succeeded). */
  readonly postValue: T;
  /** How many attempts were made, optimistic and under the lock. */
  readonly attempts: number;
  /** Curator's AtomicStats: the tries and time of each phase. */
  readonly stats: AtomicStats;
}

/**
 * The tries and time of each phase of an update (Curator's AtomicStats). As in Curator, `get` and
 * `compareAndSet` count no tries.
 */
export interface AtomicStats {
  /** Optimistic (lock-free) tries. */
  readonly optimisticTries: number;
  /** Tries made while holding the promotion lock (0 without promotion, or when the lock was not had). */
  readonly promotedTries: number;
  /** Milliseconds spent in the optimistic phase. */
  readonly optimisticTimeMs: number;
  /** Milliseconds spent in the promoted phase, taking the lock included. */
  readonly promotedTimeMs: number;
}

/** The stats of a call that counts no tries. */
export const NO_STATS: AtomicStats = {
  optimisticTries: 0,
  promotedTries: 0,
  optimisticTimeMs: 0,
  promotedTimeMs: 0,
};

/** Options of the distributed atomic recipes. */
export interface DistributedAtomicOptions {
  /** How optimistic updates are retried after losing a round (default 10 retries, 10 ms apart). */
  retry?: AtomicRetry;
  /** Retry an update that lost every optimistic round under a lock (Curator's PromotedToLock); default: don't. */
  promotedToLock?: PromotedToLockOptions;
}

/** Per-call options: an AbortSignal that stops the retry loop. */
export interface AtomicCallOptions {
  /** Stops the retry loop: the call rejects with the reason and writes nothing more. */
  signal?: AbortSignal;
}

interface CurrentValue {
  bytes: Uint8Array | null;
  stat: RecipeStat | null;
}

/** Atomic operations on the raw bytes of one znode. */
export class DistributedAtomicValue implements AsyncDisposable {
  /** The counter's znode. */
  readonly path: string;
  private readonly scope = new DisposeScope('DistributedAtomicValue');
  private readonly client: ValueClient;
  private readonly maxRetries: number;
  private readonly sleepMs: number;
  private readonly promotion: PromotionSettings | undefined;

  constructor(client: ValueClient, path: string, options: DistributedAtomicOptions = {}) {
    this.client = client;
    this.path = validateRecipePath(path);
    const { maxRetries, sleepMs } = checkRetry(options.retry, { maxRetries: 10, sleepMs: 10 }, 'retry');
    this.maxRetries = maxRetries;
    this.sleepMs = sleepMs;
    this.promotion = checkPromotion(options.promotedToLock);
  }

  /** Stops retry loops still running (they reject with ILLEGAL_STATE); the node stays. Idempotent. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.scope.close();
  }

  /** The current bytes (null when the node does not exist). */
  async get(): Promise<AtomicValue<Uint8Array | null>> {
    const { bytes } = await this.read();
    return { succeeded: true, preValue: bytes, postValue: bytes, attempts: 1, stats: NO_STATS };
  }

  /**
   * Applies `update` to the current bytes with optimistic retries, then under the promotion lock when one is
   * configured and every optimistic round lost. `update` must be a pure function: it runs once per attempt.
   */
  async update(
    update: (current: Uint8Array | null) => Uint8Array,
    options: AtomicCallOptions = {},
  ): Promise<AtomicValue<Uint8Array | null>> {
    // The caller's signal, and the end of this object's life: either stops the retry loop between attempts.
    const callerSignal = validateSignal(options.signal);
    this.scope.checkOpen();
    const signal = callerSignal ? AbortSignal.any([callerSignal, this.scope.signal]) : this.scope.signal;
    let preValue: Uint8Array | null = null;
    let postValue: Uint8Array | null = null;
    const tryOnce = async (): Promise<boolean> => {
      const current = await this.read();
      preValue = current.bytes;
      postValue = current.bytes;
      const next = update(current.bytes);
      if (!(await this.tryWrite(current.stat, next))) return false;
      postValue = next;
      return true;
    };

    const startedAt = performance.now();
    let optimisticTries = 0;
    let succeeded = false;
    for (;;) {
      signal.throwIfAborted();
      optimisticTries += 1;
      succeeded = await tryOnce();
      if (succeeded || optimisticTries > this.maxRetries) break;
      await sleep(this.sleepMs);
    }
    const optimisticTimeMs = performance.now() - startedAt;

    let promoted = { tries: 0, timeMs: 0 };
    if (!succeeded && this.promotion !== undefined) {
      // A mutex object per update (see runPromoted).
      const mutex = new InterProcessMutex(this.client, this.promotion.lockPath);
      const outcome = await runPromoted(mutex, this.promotion, tryOnce, signal);
      succeeded = outcome.succeeded;
      promoted = outcome;
    }
    return {
      succeeded,
      preValue,
      postValue,
      attempts: optimisticTries + promoted.tries,
      stats: {
        optimisticTries,
        promotedTries: promoted.tries,
        optimisticTimeMs,
        promotedTimeMs: promoted.timeMs,
      },
    };
  }

  /** Sets `value` if the node is absent or changes under no concurrent writer (with retries). */
  async trySet(value: Uint8Array, options?: AtomicCallOptions): Promise<AtomicValue<Uint8Array | null>> {
    checkBytes(value);
    return this.update(() => value, options);
  }

  /**
   * Sets `value` only when the node holds exactly `expected` bytes, in one versioned write (no retries,
   * as Curator). An absent node never matches.
   */
  async compareAndSet(expected: Uint8Array, value: Uint8Array): Promise<AtomicValue<Uint8Array | null>> {
    checkBytes(expected);
    checkBytes(value);
    const { bytes, stat } = await this.read();
    if (stat !== null && bytes !== null && sameBytes(bytes, expected)) {
      try {
        await this.client.setData(this.path, value, { version: stat.version });
        return { succeeded: true, preValue: bytes, postValue: value, attempts: 1, stats: NO_STATS };
      } catch (error) {
        if (!isBadVersion(error) && !isNoNode(error)) throw error;
      }
    }
    return { succeeded: false, preValue: bytes, postValue: bytes, attempts: 1, stats: NO_STATS };
  }

  /** Writes `value` whatever the node holds, creating it when absent. */
  async forceSet(value: Uint8Array): Promise<void> {
    checkBytes(value);
    try {
      await this.client.setData(this.path, value);
    } catch (error) {
      if (!isNoNode(error)) throw error;
      try {
        await createWithContainerParents(this.client, this.path, value, 'persistent');
      } catch (createError) {
        if (!isNodeExists(createError)) throw createError;
        await this.client.setData(this.path, value);
      }
    }
  }

  /** Creates the node with `value`; false when it already exists. */
  async initialize(value: Uint8Array): Promise<boolean> {
    checkBytes(value);
    try {
      await createWithContainerParents(this.client, this.path, value, 'persistent');
      return true;
    } catch (error) {
      if (isNodeExists(error)) return false;
      throw error;
    }
  }

  private async read(): Promise<CurrentValue> {
    try {
      const { data, stat } = await this.client.getData(this.path);
      return { bytes: Uint8Array.from(data), stat };
    } catch (error) {
      if (isNoNode(error)) return { bytes: null, stat: null };
      throw error;
    }
  }

  /** One optimistic write; false when a concurrent writer got in first. */
  private async tryWrite(stat: RecipeStat | null, value: Uint8Array): Promise<boolean> {
    try {
      if (stat === null) {
        await createWithContainerParents(this.client, this.path, value, 'persistent');
      } else {
        await this.client.setData(this.path, value, { version: stat.version });
      }
      return true;
    } catch (error) {
      if (isNodeExists(error) || isBadVersion(error) || isNoNode(error)) return false;
      throw error;
    }
  }
}

function isBadVersion(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'BADVERSION';
}

function checkBytes(value: unknown): void {
  if (!(value instanceof Uint8Array)) throw new InvalidRecipeArgumentError('value', 'must be a Uint8Array');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
