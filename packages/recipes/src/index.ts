/**
 * @zkwire/recipes: Curator-compatible locks, semaphores, barriers, leader elections, counters, caches (the README
 * maps each Curator class to ours). One export statement per module, sorted by path.
 */

export { DistributedAtomicInteger, DistributedAtomicLong } from './atomic/atomic-number.js';
export { CachedAtomicInteger, CachedAtomicLong } from './atomic/cached-atomic-number.js';
export {
  type AtomicCallOptions,
  type AtomicRetry,
  type AtomicStats,
  type AtomicValue,
  type DistributedAtomicOptions,
  DistributedAtomicValue,
} from './atomic/distributed-atomic-value.js';
export type { PromotedToLockOptions } from './atomic/promoted-to-lock.js';
export { DistributedBarrier, type DistributedBarrierOptions } from './barriers/distributed-barrier.js';
export {
  DistributedDoubleBarrier,
  type DistributedDoubleBarrierOptions,
  READY_NODE,
} from './barriers/distributed-double-barrier.js';
export type { CacheClient } from './cache/cache-client.js';
export type {
  CacheChangedEvent,
  CacheCreatedEvent,
  CacheDeletedEvent,
  CacheEvent,
  CacheEventsOptions,
  CacheInitializedEvent,
  CuratorCacheEvents,
} from './cache/cache-events.js';
export { CacheEngine, type CuratorCacheOptions } from './cache/cache-options.js';
export type { CacheStat, ChildData } from './cache/cache-types.js';
export { CuratorCache } from './cache/curator-cache.js';
export { NodeCache, type NodeCacheEvents, type NodeCacheOptions } from './cache/node-cache.js';
export {
  PathChildrenCache,
  type PathChildrenCacheEvents,
  type PathChildrenCacheOptions,
} from './cache/path-children-cache.js';
export {
  type CompressionProvider,
  gzipCompression,
  type RecipeCompression,
} from './internal-common/compression.js';
export {
  CountNodeReader,
  type CountNodeReaderEvents,
  decodeSharedCount,
  type SharedCountReader,
} from './internal-common/count-source.js';
export type { WaitOptions } from './internal-common/deadline.js';
export {
  type HoldMessage,
  type LeadershipMessage,
  RecipeChannelName,
} from './internal-common/diagnostics.js';
export { type FencedCreateMode, FencedWriter } from './internal-common/fenced-writer.js';
export {
  HoldLostError,
  type LostEvent,
  type LostPolicy,
  LostReason,
} from './internal-common/hold-monitor.js';
export { isProtectedName, normalizeProtectedName, protectedIdOf } from './internal-common/protected-name.js';
export {
  BadRecipeDataError,
  CacheEventsOverflowError,
  IllegalRecipeStateError,
  InvalidRecipeArgumentError,
  LockUpgradeError,
  NodeLostError,
  NotLockOwnerError,
  RecipeConnectionLostError,
  RecipeError,
  RecipeErrorCode,
  ReleaseFailedError,
} from './internal-common/recipe-errors.js';
export {
  type HandoffRecipe,
  HandoffRefusedError,
  type RecipeHandoff,
} from './internal-common/recipe-handoff.js';
export { sequenceOf, sortContenders } from './internal-common/sequence-sort.js';
export type {
  RecipeClient,
  RecipeConnectionState,
  RecipeOp,
  RecipeOpResult,
} from './internal-common/zk-client.js';
export { LeaderLatch } from './leader/leader-latch.js';
export {
  CloseMode,
  LATCH_LOCK_NAME,
  type LeaderLatchEvents,
  type LeaderLatchOptions,
  type LeaderLatchState,
} from './leader/leader-latch-options.js';
export {
  LeaderSelector,
  type LeaderSelectorEvents,
  type LeaderSelectorOptions,
  type Leadership,
  type TakeLeadership,
} from './leader/leader-selector.js';
export { NO_PARTICIPANT, type Participant } from './leader/participants.js';
export type { AcquireOptions, InterProcessLock } from './locks/interprocess-lock.js';
export { InterProcessMultiLock } from './locks/interprocess-multi-lock.js';
export {
  InterProcessMutex,
  type InterProcessMutexOptions,
  MUTEX_LOCK_NAME,
} from './locks/interprocess-mutex.js';
export {
  InterProcessReadWriteLock,
  type InterProcessReadWriteLockOptions,
} from './locks/interprocess-read-write-lock.js';
export { InterProcessSemaphoreMutex } from './locks/interprocess-semaphore-mutex.js';
export {
  type InterProcessSemaphoreOptions,
  InterProcessSemaphoreV2,
  LEASE_NAME,
} from './locks/interprocess-semaphore-v2.js';
export { Lease, type LeaseEvents } from './locks/lease.js';
export { READ_LOCK_NAME, WRITE_LOCK_NAME } from './locks/read-write-predicates.js';
export { type NodeLockEvents, type NodeLockOptions, ReentrantNodeLock } from './locks/reentrant-node-lock.js';
export {
  REVOKE_MESSAGE,
  type RevocationListener,
  Revoker,
  type RevokerClient,
} from './locks/revocation.js';
export { GroupMember, type GroupMemberOptions } from './nodes/group-member.js';
export type { NodeClient } from './nodes/node-client.js';
export {
  PersistentNode,
  type PersistentNodeEvents,
  type PersistentNodeState,
} from './nodes/persistent-node.js';
export {
  MAX_TTL_MS,
  PERSISTENT_NODE_MODES,
  type PersistentNodeMode,
  type PersistentNodeOptions,
} from './nodes/persistent-node-options.js';
export {
  PersistentTtlNode,
  type PersistentTtlNodeEvents,
  type PersistentTtlNodeOptions,
  type PersistentTtlParentMode,
  TTL_TOUCH_NODE_NAME,
  TTL_TOUCH_SCHEDULE_FACTOR,
} from './nodes/persistent-ttl-node.js';
export {
  compareCodePoints,
  kazooPartition,
  type PartitionFunction,
} from './partitioner/partition-function.js';
export {
  PartitionFailedError,
  type PartitionFailureReason,
  PartitionState,
  type SetPartitionerEvents,
  type SetPartitionerOptions,
} from './partitioner/partitioner-options.js';
export { SetPartitioner } from './partitioner/set-partitioner.js';
export { SharedCount, type SharedCountEvents } from './shared/shared-count.js';
export {
  SharedValue,
  type SharedValueEvents,
  type SharedValueOptions,
  type VersionedValue,
} from './shared/shared-value.js';
export type { ValueClient, ValueStat } from './shared/value-client.js';
