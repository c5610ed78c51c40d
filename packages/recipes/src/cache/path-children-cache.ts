/**
 * PathChildrenCache: the direct children of one node kept current (the name Curator users look for; Curator 5
 * deprecates its own in favour of `CuratorCache`). A thin view over {@link CuratorCache} with `maxDepth: 1`:
 * the parent node itself is loaded but not reported, as Curator's `forPathChildrenCache` bridge skips it.
 *
 * Differences from Curator's PathChildrenCache: `childUpdated` fires when a child's data version changes
 * (Curator compares mzxid, which only a data change moves too); no connection events (listen to the
 * client's `state`); the parent is not created as a container; one start mode, which reports every child as
 * `childAdded` and then `initialized` (Curator's POST_INITIALIZED_EVENT).
 */
import { EventEmitter } from 'node:events';
import type { RecipeCompression } from '../internal-common/compression.js';
import type { WaitOptions } from '../internal-common/deadline.js';
import { Reporter } from '../internal-common/safe-emit.js';
import type { CacheClient } from './cache-client.js';
import { type CacheEngine, rejectUnknownOptions } from './cache-options.js';
import type { ChildData } from './cache-types.js';
import { CuratorCache, relayToView } from './curator-cache.js';

/** Listener signatures of {@link PathChildrenCache}. */
export interface PathChildrenCacheEvents {
  childAdded: [data: ChildData];
  childUpdated: [data: ChildData, oldData: ChildData];
  childRemoved: [oldData: ChildData];
  initialized: [];
  /** A background failure (see CuratorCache's `error`). */
  error: [error: unknown];
}

/** Options of {@link PathChildrenCache}. */
export interface PathChildrenCacheOptions {
  /** Keep the children's bytes (Curator's `cacheData`, default true) or only their Stat. */
  cacheData?: boolean;
  /** Default `'auto'`. */
  engine?: CacheEngine;
  /** Decompress the children's data (Curator's `dataIsCompressed`); see CuratorCache. */
  compression?: RecipeCompression;
}

/** The direct children of one node, kept current. */
export class PathChildrenCache extends EventEmitter<PathChildrenCacheEvents> implements AsyncDisposable {
  /** The cache underneath (the parent and one level). */
  readonly cache: CuratorCache;

  constructor(client: CacheClient, path: string, options: PathChildrenCacheOptions = {}) {
    super();
    rejectUnknownOptions(options, ['cacheData', 'engine', 'compression'], 'PathChildrenCache');
    const { cacheData, engine, compression } = options;
    this.cache = new CuratorCache(client, path, {
      maxDepth: 1,
      ...(cacheData === undefined ? {} : { keepData: cacheData }),
      ...(engine === undefined ? {} : { engine }),
      ...(compression === undefined ? {} : { compression }),
    });
    const reporter = new Reporter<PathChildrenCacheEvents>(
      this,
      client,
      `PathChildrenCache ${this.cache.path}`,
    );
    relayToView(this.cache, reporter, (event) => {
      if (event.type === 'initialized' || event.path === this.cache.path) return;
      if (event.type === 'created') reporter.emit('childAdded', event.data);
      else if (event.type === 'changed') reporter.emit('childUpdated', event.data, event.oldData);
      else reporter.emit('childRemoved', event.oldData);
    });
  }

  /** The parent's path. */
  get path(): string {
    return this.cache.path;
  }

  /** Every cached child, sorted by path (Curator's `getCurrentData()`). */
  get currentData(): ChildData[] {
    return this.cache.children(this.cache.path);
  }

  /** One cached child by full path (Curator's `getCurrentData(fullPath)`). */
  getCurrentData(fullPath: string): ChildData | undefined {
    return fullPath === this.cache.path ? undefined : this.cache.get(fullPath);
  }

  /** Starts watching (see {@link CuratorCache.start}). */
  start(): Promise<void> {
    return this.cache.start();
  }

  /** Waits for the initial load (true), or false after `timeoutMs`. */
  awaitInitialized(options?: WaitOptions): Promise<boolean> {
    return this.cache.awaitInitialized(options);
  }

  /** Stops watching; leaves no watch and no listener on the client. */
  close(): Promise<void> {
    return this.cache.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
