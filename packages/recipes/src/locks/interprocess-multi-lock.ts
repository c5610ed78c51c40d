/**
 * InterProcessMultiLock (curator/locks.md §5): several locks as one, all or none. It makes no nodes of its
 * own. Locks are taken in list order and released in reverse; if one cannot be taken, those already held are
 * released in reverse. Unlike Curator, which gives each lock the full timeout, `timeoutMs` bounds the whole
 * acquisition.
 */
import { Deadline } from '../internal-common/deadline.js';
import {
  InvalidRecipeArgumentError,
  NotLockOwnerError,
  ReleaseFailedError,
} from '../internal-common/recipe-errors.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { InterProcessMutex } from './interprocess-mutex.js';

/** Several locks acquired and released as one. */
export class InterProcessMultiLock implements InterProcessLock {
  readonly #locks: readonly InterProcessLock[];

  /**
   * @param locks the locks, in acquisition order
   */
  constructor(locks: readonly InterProcessLock[]);
  /**
   * @param client a connected client
   * @param paths one InterProcessMutex is made for each path, in this order
   */
  constructor(client: RecipeClient, paths: readonly string[]);
  constructor(first: readonly InterProcessLock[] | RecipeClient, paths?: readonly string[]) {
    if (Array.isArray(first)) {
      this.#locks = [...(first as readonly InterProcessLock[])];
    } else {
      if (!Array.isArray(paths))
        throw new InvalidRecipeArgumentError('paths', 'must be an array of lock paths');
      const client = first as RecipeClient;
      this.#locks = paths.map((path) => new InterProcessMutex(client, path));
    }
    if (this.#locks.length === 0)
      throw new InvalidRecipeArgumentError(
        Array.isArray(first) ? 'locks' : 'paths',
        'must hold at least one lock',
      );
  }

  /** The wrapped locks, in acquisition order. */
  get locks(): readonly InterProcessLock[] {
    return this.#locks;
  }

  /**
   * Takes every lock in order, all or none: when one cannot be had within the one deadline (or fails), the
   * ones already held are released before this resolves false (or rejects).
   */
  async acquire(options?: AcquireOptions): Promise<boolean> {
    const deadline = Deadline.of(options);
    const held: InterProcessLock[] = [];
    try {
      for (const lock of this.#locks) {
        if (!(await lock.acquire(deadline.toOptions()))) {
          await releaseAll(held);
          return false;
        }
        held.push(lock);
      }
      return true;
    } catch (error) {
      await releaseAll(held).catch(() => {});
      throw error;
    }
  }

  /** Releases every lock, in reverse order; failures are gathered into one ReleaseFailedError. */
  async release(): Promise<void> {
    if (!this.isAcquiredInThisProcess()) throw new NotLockOwnerError('(multi-lock)');
    await releaseAll([...this.#locks]);
  }

  /** True when every wrapped lock is held by this process. */
  isAcquiredInThisProcess(): boolean {
    return this.#locks.every((lock) => lock.isAcquiredInThisProcess());
  }

  /** Releases the locks still held, in reverse order. */
  async [Symbol.asyncDispose](): Promise<void> {
    await releaseAll(this.#locks.filter((lock) => lock.isAcquiredInThisProcess()));
  }
}

/** Releases in reverse order, attempting every release; throws ReleaseFailedError if any failed. */
async function releaseAll(locks: readonly InterProcessLock[]): Promise<void> {
  const errors: unknown[] = [];
  for (const lock of [...locks].reverse()) {
    try {
      await lock.release();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new ReleaseFailedError(errors);
}
