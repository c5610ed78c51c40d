/**
 * The data types of the caches, which import nothing of this package: the client's types under the names this
 * package published, and the cached node. The cache's files take their types from here, so that one that only
 * names a node does not sit on the floors of the tree and its store.
 */
import type { Stat, WatchEvent, Watcher, WatchOptions } from '@zkwire/zk-wire-client';

/** A ZooKeeper Stat, every field (the client's `Stat`). */
export type CacheStat = Stat;

/** A watch event as the client delivers it (`path` is a client path). */
export type CacheWatchEvent = WatchEvent;

/** A watch callback. */
export type CacheWatcher = Watcher;

/** Read options with an optional one-shot watch. */
export type CacheReadOptions = WatchOptions;

/** One cached node (Curator's `ChildData`): full path, Stat, and the bytes (`null` when data is not kept). */
export interface ChildData {
  readonly path: string;
  readonly stat: CacheStat;
  readonly data: Uint8Array | null;
}
