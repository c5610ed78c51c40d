/**
 * DistributedBarrier (Curator's `barriers.DistributedBarrier`, curator/barriers.md §6.1): the barrier is up
 * while its znode exists. `setBarrier` creates it (PERSISTENT, container parents, NodeExists ignored),
 * `removeBarrier` deletes it (NoNode ignored), and `waitOnBarrier` blocks until it is gone: `exists(B,
 * watch)` in one request, then wait for the watch, so a removal between the check and the wait cannot be
 * missed.
 */
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { Deadline, DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import { nodeDataOf } from '../internal-common/default-data.js';
import { deleteIfPresent } from '../internal-common/missing-node.js';
import { validateRecipePath } from '../internal-common/validate.js';
import { Wakeup } from '../internal-common/wakeup.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNodeExists } from '../internal-common/zk-errors.js';
import { DisposeScope } from '../shared/dispose-scope.js';

/** Options of {@link DistributedBarrier}. */
export interface DistributedBarrierOptions {
  /** Data of the barrier node; by default the local address, as Curator writes. */
  data?: Uint8Array | string;
}

/** A barrier that is up while its znode exists. */
export class DistributedBarrier implements AsyncDisposable {
  /** The barrier node: the barrier is up while it exists. */
  readonly path: string;
  readonly #client: RecipeClient;
  readonly #data: Uint8Array | string | undefined;
  readonly #scope = new DisposeScope('DistributedBarrier');

  constructor(client: RecipeClient, path: string, options: DistributedBarrierOptions = {}) {
    this.#client = client;
    this.path = validateRecipePath(path);
    this.#data = options.data;
  }

  /** Raises the barrier: creates its node unless it exists. */
  async setBarrier(): Promise<void> {
    this.#scope.checkOpen();
    try {
      await createWithContainerParents(this.#client, this.path, await nodeDataOf(this.#data), 'persistent');
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }

  /** Lowers the barrier: deletes its node (any version) unless it is already gone. */
  async removeBarrier(): Promise<void> {
    this.#scope.checkOpen();
    await deleteIfPresent(this.#client, this.path);
  }

  /**
   * Blocks until the barrier is down. True when it is; false when the timeout passed first. Rejects with the
   * abort reason when the signal aborts, and with an ILLEGAL_STATE error when this object is disposed meanwhile.
   */
  async waitOnBarrier(options?: WaitOptions): Promise<boolean> {
    const deadline = this.#scope.deadline(options);
    // As in Curator the timeout bounds the waiting, not the check: an answer "no barrier" is never cut short.
    const checks = Deadline.of(deadline.signal ? { signal: deadline.signal } : {});
    try {
      for (;;) {
        const wakeup = new Wakeup(this.#client);
        let stat: unknown;
        try {
          stat = await checks.guard(this.#client.exists(this.path, { watch: wakeup.watcher }));
        } catch (error) {
          wakeup.dispose();
          throw error;
        }
        if (stat === null) {
          wakeup.dispose();
          return true;
        }
        await wakeup.wait(deadline);
      }
    } catch (error) {
      if (error instanceof DeadlineExpired) return false;
      throw error;
    }
  }

  /** Ends waits of this object still in progress; the barrier node itself is shared and stays. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#scope.close();
  }
}
