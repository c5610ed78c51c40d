/**
 * NodeCache: one node kept current (the name Curator users look for; Curator 5 deprecates its own in favour
 * of `CuratorCache` with `SINGLE_NODE_CACHE`, which this is). A thin view over {@link CuratorCache}.
 *
 * Differences from Curator's NodeCache: `nodeChanged` fires when the node appears, disappears or its data
 * version changes (not on a children-only change), and the node's parents are not created.
 */
import { EventEmitter } from 'node:events';
import type { RecipeCompression } from '../internal-common/compression.js';
import type { WaitOptions } from '../internal-common/deadline.js';
import { Reporter } from '../internal-common/safe-emit.js';
import type { CacheClient } from './cache-client.js';
import { type CacheEngine, rejectUnknownOptions } from './cache-options.js';
import type { ChildData } from './cache-types.js';
import { CuratorCache, relayToView } from './curator-cache.js';

/** Listener signatures of {@link NodeCache}. */
export interface NodeCacheEvents {
  /** The node was created, changed or deleted: `data` is its new state (undefined once deleted). */
  nodeChanged: [data: ChildData | undefined];
  /** The first read finished. */
  initialized: [];
  /** A background failure (see CuratorCache's `error`). */
  error: [error: unknown];
}

/** Options of {@link NodeCache}. */
export interface NodeCacheOptions {
  /** Keep the bytes (default true) or only the Stat. */
  keepData?: boolean;
  /** Default `'auto'`. */
  engine?: CacheEngine;
  /** Decompress the node's data (Curator's `NodeCache(client, path, dataIsCompressed)`); see CuratorCache. */
  compression?: RecipeCompression;
}

/** One node, kept current. */
export class NodeCache extends EventEmitter<NodeCacheEvents> implements AsyncDisposable {
  /** The cache underneath (single node). */
  readonly cache: CuratorCache;

  constructor(client: CacheClient, path: string, options: NodeCacheOptions = {}) {
    super();
    rejectUnknownOptions(options, ['keepData', 'engine', 'compression'], 'NodeCache');
    this.cache = new CuratorCache(client, path, { ...options, singleNode: true });
    const reporter = new Reporter<NodeCacheEvents>(this, client, `NodeCache ${this.cache.path}`);
    relayToView(this.cache, reporter, (event) => {
      if (event.type !== 'initialized') reporter.emit('nodeChanged', event.data);
    });
  }

  /** The watched node's path. */
  get path(): string {
    return this.cache.path;
  }

  /** The node as last seen, or undefined when it does not exist (or is not loaded yet). */
  get currentData(): ChildData | undefined {
    return this.cache.get(this.cache.path);
  }

  /** Starts watching (see {@link CuratorCache.start}). */
  start(): Promise<void> {
    return this.cache.start();
  }

  /** Waits for the first read (true), or false after `timeoutMs`. */
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
