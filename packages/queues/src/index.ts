/**
 * `@zkwire/queues`: ZooKeeper distributed queues whose nodes and bytes are Apache Curator 5.x's, so Node and
 * Java services can produce into and consume from the same queue.
 */

export { BATCH_VERSION, decodeBatch, encodeBatch } from './batch-format.js';
export type { ConsumerStats } from './consumer-loop.js';
export { DistributedDelayQueue } from './delay-queue.js';
export { QueueChannelName, type QueueMessage } from './diagnostics.js';
export { DistributedQueue } from './distributed-queue.js';
export {
  CorruptQueueItemError,
  isQueueError,
  QueueArgumentError,
  QueueError,
  QueueErrorCode,
} from './errors.js';
export { DistributedIdQueue } from './id-queue.js';
export {
  delayItemPrefix,
  idItemPrefix,
  parseDelayEpoch,
  parseIdName,
  parsePriority,
  priorityItemPrefix,
  QUEUE_ITEM_PREFIX,
  SIMPLE_ITEM_PREFIX,
  sanitizeId,
} from './item-names.js';
export type { ErrorMode, ItemInfo } from './item-processor.js';
export { DistributedPriorityQueue, type PriorityQueueOptions } from './priority-queue.js';
export type { ConsumeOptions, ItemHandler, PutOptions, QueueOptions } from './queue-base.js';
export {
  QUEUE_SHARD_PREFIX,
  QueueSharder,
  type QueueSharderOptions,
  type SharderClient,
  type ShardQueue,
} from './queue-sharder.js';
export { bytesSerializer, jsonSerializer, type QueueSerializer, stringSerializer } from './serializers.js';
export { SimpleDistributedQueue, type TakeOptions } from './simple-queue.js';
export type { QueueClient } from './zk-client.js';
