/**
 * The slice of the client that the caches use, written structurally (as `RecipeClient` is): the real
 * `ZooKeeperClient` satisfies it without a cast, and a test may wrap it.
 */
import type { RecipeCallOptions, RecipeClient } from '../internal-common/zk-client.js';

/** A ZooKeeper Stat, every field (the client's `Stat`). */
export interface CacheStat {
  readonly czxid: bigint;
  readonly mzxid: bigint;
  readonly ctime: bigint;
  readonly mtime: bigint;
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  readonly ephemeralOwner: bigint;
  readonly dataLength: number;
  readonly numChildren: number;
  readonly pzxid: bigint;
}

/** A watch event as the client delivers it (`path` is a client path). */
export interface CacheWatchEvent {
  readonly type: string;
  readonly path: string;
}

/** A watch callback. */
export type CacheWatcher = (event: CacheWatchEvent) => void;

/** Read options with an optional one-shot watch. */
export type CacheReadOptions = RecipeCallOptions & { watch?: CacheWatcher };

/** What the caches need from a ZooKeeper client; `@zkwire/zk-wire-client`'s client satisfies it. */
export interface CacheClient extends RecipeClient {
  /** The server's version once the client probed it (a version-gated call did). */
  readonly serverVersion?: string | undefined;
  getData(path: string, options?: CacheReadOptions): Promise<{ data: Uint8Array; stat: CacheStat }>;
  exists(path: string, options?: CacheReadOptions): Promise<CacheStat | null>;
  getChildren(path: string, options?: CacheReadOptions): Promise<string[]>;
  setData(
    path: string,
    data: Uint8Array | string | null,
    options?: RecipeCallOptions & { version?: number },
  ): Promise<unknown>;
  addWatch(
    path: string,
    mode: 'persistent' | 'persistent-recursive',
    watcher: CacheWatcher,
    options?: RecipeCallOptions,
  ): Promise<void>;
  removeWatches(
    path: string,
    type: 'children' | 'data' | 'any',
    options?: RecipeCallOptions & { watcher?: CacheWatcher; local?: boolean },
  ): Promise<void>;
}

/** The error code the client gives an operation the server is too old for (addWatch on 3.5). */
export function isUnsupportedByServer(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'UNSUPPORTEDBYSERVER';
}

/** True for the client's "no such watcher" error (a one-shot watch that already fired). */
export function isNoWatcher(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'NOWATCHER';
}
