/**
 * DistributedQueue: FIFO by sequence (Curator's `QueueBuilder.buildQueue()`, curator/queues.md §8).
 */
import { naturalNaming, QUEUE_ITEM_PREFIX } from './item-names.js';
import { type PutOptions, QueueBase, type QueueOptions } from './queue-base.js';
import type { QueueClient } from './zk-client.js';

/**
 * A FIFO queue of batches: `put` makes one node holding one item, `putMulti` one node holding many; the
 * consumer takes nodes in sequence order. Delivery: at-most-once by default, at-least-once with `lockPath`.
 */
export class DistributedQueue<T> extends QueueBase<T> {
  /** @param path the queue node, e.g. `/jobs`; created on first use. */
  constructor(client: QueueClient, path: string, options: QueueOptions<T>) {
    super(client, path, options, naturalNaming, Number.POSITIVE_INFINITY);
  }

  /** Adds one item; resolves with its node's path once it exists. */
  put(item: T, options?: PutOptions): Promise<string> {
    return this.putBatch(QUEUE_ITEM_PREFIX, [item], options);
  }

  /** Adds several items as one node (one write, delivered together, in this order). */
  putMulti(items: readonly T[], options?: PutOptions): Promise<string> {
    return this.putBatch(QUEUE_ITEM_PREFIX, items, options);
  }
}
