/**
 * DistributedPriorityQueue (Curator's `buildPriorityQueue(minItemsBeforeRefresh)`, curator/queues.md §9).
 */

import { QueueArgumentError } from './errors.js';
import { naturalNaming, priorityItemPrefix } from './item-names.js';
import { type PutOptions, QueueBase, type QueueOptions } from './queue-base.js';
import type { QueueClient } from './zk-client.js';

/** Options of {@link DistributedPriorityQueue}. */
export interface PriorityQueueOptions<T> extends QueueOptions<T> {
  /**
   * After this many items of a snapshot, if the queue changed, the rest of the snapshot is dropped and the
   * children listed again, so newer urgent items jump ahead. Smaller is more responsive, larger lists less
   * often. Default 10.
   */
  minItemsBeforeRefresh?: number | undefined;
}

/**
 * Items carry a 32-bit priority in the node name; the lowest number is consumed first, equal priorities in
 * put order. Delivery: at-most-once by default, at-least-once with `lockPath` (a requeued batch loses its
 * priority, as in Curator, and so comes first).
 */
export class DistributedPriorityQueue<T> extends QueueBase<T> {
  constructor(client: QueueClient, path: string, options: PriorityQueueOptions<T>) {
    const refresh = options?.minItemsBeforeRefresh ?? 10;
    if (!Number.isInteger(refresh) || refresh < 0) {
      throw new QueueArgumentError('minItemsBeforeRefresh', `must be a non-negative integer, got ${refresh}`);
    }
    super(client, path, options, naturalNaming, refresh);
  }

  /** Adds one item with a priority (a 32-bit integer; lower is sooner). */
  put(item: T, priority: number, options?: PutOptions): Promise<string> {
    return this.putBatch(priorityItemPrefix(priority), [item], options);
  }

  /** Adds several items as one node with one priority. */
  putMulti(items: readonly T[], priority: number, options?: PutOptions): Promise<string> {
    return this.putBatch(priorityItemPrefix(priority), items, options);
  }
}
