/**
 * DistributedIdQueue (Curator's `buildIdQueue()`, curator/queues.md §11).
 */

import { QueueArgumentError } from './errors.js';
import { acquireItemLock, releaseItemLock } from './item-lock.js';
import { idItemPrefix, idNaming, parseIdName, sanitizeId } from './item-names.js';
import { type PutOptions, QueueBase, type QueueOptions } from './queue-base.js';
import { retryTransient } from './retry.js';
import type { QueueClient } from './zk-client.js';
import { isTakenByAnother } from './zk-errors.js';

/**
 * A FIFO queue whose items carry an id, so that items not yet consumed can be removed by id. Delivery:
 * at-most-once by default, at-least-once with `lockPath` (a requeued batch keeps its id).
 */
export class DistributedIdQueue<T> extends QueueBase<T> {
  constructor(client: QueueClient, path: string, options: QueueOptions<T>) {
    if (typeof path === 'string' && path.includes('|')) {
      throw new QueueArgumentError('path', "must not contain '|' in an id queue");
    }
    super(client, path, options, idNaming, Number.POSITIVE_INFINITY);
  }

  /** Adds one item under `id` (`/` and `|` in the id become `_` in the node name, as in Curator). */
  put(item: T, id: string, options?: PutOptions): Promise<string> {
    return this.putBatch(idItemPrefix(id), [item], options);
  }

  /**
   * Removes every item not yet consumed whose id is `id` (compared in its sanitised form, so both the id given
   * to `put` and its `_` form match). Resolves with how many were removed. In lock-safe mode an item being
   * consumed right now is left to its consumer. `signal` stops it between items (those removed stay removed).
   */
  async remove(id: string, options: { signal?: AbortSignal | undefined } = {}): Promise<number> {
    idItemPrefix(id);
    const wanted = sanitizeId(id);
    await this.start();
    const { signal } = options;
    const names = await retryTransient(this.client, () => this.client.getChildren(this.path), { signal });
    let removed = 0;
    for (const name of names) {
      signal?.throwIfAborted();
      if (parseIdName(name).id !== wanted) continue;
      if (await this.removeOne(name)) removed++;
    }
    return removed;
  }

  private async removeOne(name: string): Promise<boolean> {
    const itemPath = `${this.path}/${name}`;
    const lockPath = this.options.lockPath;
    const lockNodePath = lockPath === undefined ? undefined : `${lockPath}/${name}`;
    if (lockNodePath !== undefined) {
      const lock = await acquireItemLock(this.client, lockNodePath, () => {});
      if (lock.result === 'locked') return false;
    }
    try {
      await retryTransient(this.client, () => this.client.delete(itemPath));
      return true;
    } catch (error) {
      if (isTakenByAnother(error)) return false;
      throw error;
    } finally {
      if (lockNodePath !== undefined) await releaseItemLock(this.client, lockNodePath);
    }
  }
}
