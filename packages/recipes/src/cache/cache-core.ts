/**
 * What both engines share: the tree, the rule that turns a read into an event, and the count of reads in
 * flight that decides when the initial load is over.
 *
 * Change rule (Curator's, made stricter): a node is `changed` when its data version differs, or when it is a
 * new node under the same path (another `czxid`, which Curator misses after a delete + re-create during a
 * disconnect, CURATOR-391). A re-read of an unchanged node is silent, so a resync after a reconnect or a
 * session expiry reports only what really differs. A reply older than the entry held (same node, lower
 * `mzxid`) is ignored.
 */
import { decompressData } from '../internal-common/compression.js';
import type { CacheClient } from './cache-client.js';
import type { CacheEvent } from './cache-events.js';
import type { ResolvedCacheOptions } from './cache-options.js';
import { CacheTree, depthBelow } from './cache-tree.js';
import type { CacheStat, ChildData } from './cache-types.js';

/** Where the core reports to (the public cache object). */
export interface CacheSink {
  event(event: CacheEvent): void;
  initialized(): void;
  error(error: unknown): void;
}

/** What a stored read told the loader. */
export interface Applied {
  /** The node was not cached before. */
  readonly isNew: boolean;
  /** Its children may differ from what is cached (new node, or `cversion` moved). */
  readonly childrenMoved: boolean;
}

/** The shared state of one cache. */
export class CacheCore {
  readonly tree: CacheTree;
  closed = false;
  private inFlight = 0;
  private initializedSent = false;
  /** A read of the current load failed with a connection error: the load is not complete yet. */
  private loadIncomplete = false;

  constructor(
    readonly client: CacheClient,
    readonly root: string,
    readonly options: ResolvedCacheOptions,
    private readonly sink: CacheSink,
  ) {
    this.tree = new CacheTree(root);
  }

  /** Depth of `path` below the root, or -1 outside the cache's scope (outside the subtree, or too deep). */
  scopeDepth(path: string): number {
    const depth = depthBelow(this.root, path);
    return depth > this.options.maxDepth ? -1 : depth;
  }

  /** Whether the children of a node at `path` are cached. */
  listsChildrenOf(path: string): boolean {
    const depth = this.scopeDepth(path);
    return depth >= 0 && depth < this.options.maxDepth;
  }

  /** A (re)load starts: the initial load is complete only once its reads all succeeded or were answered. */
  loadStarting(): void {
    this.loadIncomplete = false;
  }

  /** Runs one read counted towards `initialized`. */
  track<T>(read: Promise<T>, onResult: (value: T) => void, onError: (error: unknown) => void): void {
    this.inFlight++;
    read
      .then(
        (value) => {
          this.inFlight--;
          if (!this.closed) onResult(value);
        },
        (error: unknown) => {
          this.inFlight--;
          if (!this.closed) onError(error);
        },
      )
      .catch((error: unknown) => this.error(error))
      .finally(() => this.maybeInitialized());
  }

  /** A read failed with a connection or session error: the next resync will redo it. */
  markIncomplete(): void {
    this.loadIncomplete = true;
  }

  /** Stores a node read from the server; emits `created` or `changed`; undefined for a stale reply. */
  applyData(path: string, data: Uint8Array, stat: CacheStat): Applied | undefined {
    if (this.closed || this.scopeDepth(path) < 0) return undefined;
    const old = this.tree.get(path);
    if (old !== undefined && old.stat.czxid === stat.czxid && old.stat.mzxid > stat.mzxid) return undefined;
    this.tree.set(path, stat, this.options.keepData ? data : null);
    // The event carries the read's own objects (with the bytes even when the cache keeps only the Stat).
    const withBytes: ChildData = { path, stat, data };
    const replaced = old !== undefined && old.stat.czxid !== stat.czxid;
    if (old === undefined) {
      this.sink.event({ type: 'created', path, oldData: undefined, data: withBytes });
    } else if (replaced || old.stat.version !== stat.version) {
      this.sink.event({ type: 'changed', path, oldData: old, data: withBytes });
    }
    return {
      isNew: old === undefined,
      childrenMoved: old === undefined || replaced || old.stat.cversion !== stat.cversion,
    };
  }

  /** The node is gone on the server: it and its cached descendants leave the cache (deepest first). */
  applyGone(path: string): void {
    if (this.closed) return;
    for (const oldData of this.tree.removeSubtree(path)) {
      this.sink.event({ type: 'deleted', path: oldData.path, oldData, data: undefined });
    }
  }

  /**
   * The data a node holds, from the bytes read (decompressed with the `compression` option). Bytes that do not
   * decompress are kept as read, and the failure is reported.
   */
  nodeData(path: string, bytes: Uint8Array): Uint8Array {
    try {
      return decompressData(this.options.compression, path, bytes);
    } catch (error) {
      this.error(error);
      return bytes;
    }
  }

  /** Reports a background failure that a resync will not repair. */
  error(error: unknown): void {
    if (!this.closed) this.sink.error(error);
  }

  private maybeInitialized(): void {
    if (this.inFlight !== 0 || this.initializedSent || this.loadIncomplete || this.closed) return;
    this.initializedSent = true;
    this.tree.trim();
    this.sink.initialized();
  }
}
