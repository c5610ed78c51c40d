/**
 * InterProcessSemaphoreMutex (curator/locks.md §3.4): a semaphore with one lease, used as a lock. Not
 * reentrant: a second acquire from the same object waits like any other contender (and times out).
 */
import { NotLockOwnerError } from '../internal-common/recipe-errors.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { type InterProcessSemaphoreOptions, InterProcessSemaphoreV2 } from './interprocess-semaphore-v2.js';
import type { Lease } from './lease.js';

/** A non-reentrant lock across processes, compatible with Curator's InterProcessSemaphoreMutex. */
export class InterProcessSemaphoreMutex implements InterProcessLock {
  readonly #semaphore: InterProcessSemaphoreV2;
  readonly #path: string;
  #lease: Lease | undefined;

  /**
   * @param client a connected client
   * @param path the lock path (`locks/` and `leases/` live under it)
   */
  constructor(client: RecipeClient, path: string, options: InterProcessSemaphoreOptions = {}) {
    this.#semaphore = new InterProcessSemaphoreV2(client, path, 1, options);
    this.#path = path;
  }

  /** Takes the single lease; false on timeout. Not reentrant: a second acquire by the holder waits like anyone. */
  async acquire(options?: AcquireOptions): Promise<boolean> {
    const lease = await this.#semaphore.acquire(options);
    if (lease === null) return false;
    this.#lease = lease;
    return true;
  }

  /** Returns the lease; NotLockOwnerError when this object holds none. */
  async release(): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) throw new NotLockOwnerError(this.#path);
    this.#lease = undefined;
    await lease.close();
  }

  /** True while this object holds the lease. */
  isAcquiredInThisProcess(): boolean {
    return this.#lease !== undefined;
  }

  /** The lease of the current hold (fencing token, lost signal), or undefined. */
  get lease(): Lease | undefined {
    return this.#lease;
  }

  /** Releases the lease if held, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#lease !== undefined) await this.release();
  }
}
