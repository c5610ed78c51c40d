/**
 * DistributedAtomicValue: optimistic compare-and-set on one znode's data version (Curator's
 * `org.apache.curator.framework.recipes.atomic.DistributedAtomicValue`, curator-compat.md §12.3).
 *
 * Each attempt reads the data and its version, computes the new bytes, then creates the node (when absent) or
 * writes with `version = stat.version`. NodeExists, BadVersion and NoNode mean "someone else won this round":
 * the attempt is repeated while the retry settings allow, and the result's `succeeded` says how it ended.
 * Like Curator, losing every round is not an exception: callers must check `succeeded`.
 */
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { sleep } from '../internal-common/deadline.js';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { validateRecipePath, validateSignal } from '../internal-common/validate.js';
import type { RecipeStat } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode } from '../internal-common/zk-errors.js';
import { DisposeScope } from '../shared/dispose-scope.js';
import type { ValueClient } from '../shared/value-client.js';

/** The outcome of an atomic operation (Curator's AtomicValue). */
export interface AtomicValue<T> {
  /** False when every attempt lost to a concurrent writer; pre and post values are then the last seen. */
  readonly succeeded: boolean;
  /** The value before the operation. */
  readonly preValue: T;
  /** The value after the operation (the new value when it succeeded). */
  readonly postValue: T;
  /** How many optimistic attempts were made. */
  readonly attempts: number;
}

/** How often an optimistic update is tried again after losing a round. */
export interface AtomicRetry {
  /** Extra attempts after the first one (default 10). */
  maxRetries?: number;
  /** Pause between attempts in milliseconds (default 10). */
  sleepMs?: number;
}

/** Options of the distributed atomic recipes. */
export interface DistributedAtomicOptions {
  /** How optimistic updates are retried after losing a round (default 10 retries, 10 ms apart). */
  retry?: AtomicRetry;
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

  constructor(client: ValueClient, path: string, options: DistributedAtomicOptions = {}) {
    this.client = client;
    this.path = validateRecipePath(path);
    const { maxRetries = 10, sleepMs = 10 } = options.retry ?? {};
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new InvalidRecipeArgumentError('retry.maxRetries must be an integer ≥ 0');
    }
    if (!Number.isFinite(sleepMs) || sleepMs < 0) {
      throw new InvalidRecipeArgumentError('retry.sleepMs must be a finite number ≥ 0');
    }
    this.maxRetries = maxRetries;
    this.sleepMs = sleepMs;
  }

  /** Stops retry loops still running (they reject with ILLEGAL_STATE); the node stays. Idempotent. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.scope.close();
  }

  /** The current bytes (null when the node does not exist). */
  async get(): Promise<AtomicValue<Uint8Array | null>> {
    const { bytes } = await this.read();
    return { succeeded: true, preValue: bytes, postValue: bytes, attempts: 1 };
  }

  /**
   * Applies `update` to the current bytes with optimistic retries. `update` must be a pure function: it runs
   * once per attempt.
   */
  async update(
    update: (current: Uint8Array | null) => Uint8Array,
    options: AtomicCallOptions = {},
  ): Promise<AtomicValue<Uint8Array | null>> {
    // The caller's signal, and the end of this object's life: either stops the retry loop between attempts.
    const callerSignal = validateSignal(options.signal);
    this.scope.checkOpen();
    const signal = callerSignal ? AbortSignal.any([callerSignal, this.scope.signal]) : this.scope.signal;
    let last: CurrentValue = { bytes: null, stat: null };
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      last = await this.read();
      const next = update(last.bytes);
      if (await this.tryWrite(last.stat, next)) {
        return { succeeded: true, preValue: last.bytes, postValue: next, attempts: attempt };
      }
      if (attempt > this.maxRetries) {
        return { succeeded: false, preValue: last.bytes, postValue: last.bytes, attempts: attempt };
      }
      await sleep(this.sleepMs);
    }
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
        return { succeeded: true, preValue: bytes, postValue: value, attempts: 1 };
      } catch (error) {
        if (!isBadVersion(error) && !isNoNode(error)) throw error;
      }
    }
    return { succeeded: false, preValue: bytes, postValue: bytes, attempts: 1 };
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
  if (!(value instanceof Uint8Array)) throw new InvalidRecipeArgumentError('value must be a Uint8Array');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
