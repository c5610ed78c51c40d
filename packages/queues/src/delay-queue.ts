/**
 * DistributedDelayQueue (Curator's `buildDelayQueue()`, curator/queues.md §10).
 */
import { delayItemPrefix, delayNaming } from './item-names.js';
import { type PutOptions, QueueBase, type QueueOptions } from './queue-base.js';
import type { QueueClient } from './zk-client.js';

/**
 * Items are withheld until their due time (epoch ms, judged by the consumer's clock); due items come out
 * earliest first. A consumer sleeps until the earliest due time or until the queue changes, never polls.
 * Delivery: at-most-once by default, at-least-once with `lockPath` (a requeued batch becomes due at once).
 */
export class DistributedDelayQueue<T> extends QueueBase<T> {
  constructor(client: QueueClient, path: string, options: QueueOptions<T>) {
    super(client, path, options, delayNaming, Number.POSITIVE_INFINITY);
  }

  /** Adds one item, due at `delayUntilEpochMs` (e.g. `Date.now() + 60_000`). */
  put(item: T, delayUntilEpochMs: number, options?: PutOptions): Promise<string> {
    return this.putBatch(delayItemPrefix(delayUntilEpochMs), [item], options);
  }

  /** Adds several items as one node, all due at `delayUntilEpochMs`. */
  putMulti(items: readonly T[], delayUntilEpochMs: number, options?: PutOptions): Promise<string> {
    return this.putBatch(delayItemPrefix(delayUntilEpochMs), items, options);
  }
}
