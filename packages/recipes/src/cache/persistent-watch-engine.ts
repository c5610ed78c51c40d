/**
 * The engine for servers 3.6+ (Curator's `CuratorCacheImpl`): one persistent recursive watch on the root,
 * placed before the first read, so no change can fall between a read and the watch. Unlike Curator, a
 * single-node cache uses a recursive watch too (descendants' events are dropped here): servers 3.6 to 3.8 keep
 * one watch mode per path and connection (ZOOKEEPER-4466), so a non-recursive watch would silently turn a
 * subtree cache on the same path of the same client into a one-level one. After a reconnect the client restores the watch but the server sends no catch-up
 * events, so the tree is re-read: a `getData` per cached node and a listing of each node whose `cversion`
 * moved. After a session expiry the watch is placed again first.
 */
import { isRetryable } from '../internal-common/zk-errors.js';
import type { CacheCore } from './cache-core.js';
import type { CacheEngineDriver } from './cache-engine.js';
import type { CacheWatchEvent } from './cache-types.js';
import { TreeLoader } from './tree-loader.js';

/** One persistent (recursive) watch on the root. */
export class PersistentWatchEngine implements CacheEngineDriver {
  readonly kind = 'persistent-watch' as const;
  private readonly loader: TreeLoader;
  private watchPlaced = false;
  private placing: Promise<void> | undefined;
  private readonly watcher = (event: CacheWatchEvent) => this.onWatchEvent(event);

  constructor(private readonly core: CacheCore) {
    this.loader = new TreeLoader(core);
  }

  async start(): Promise<void> {
    await this.placeWatch();
    this.reload();
  }

  resync(sessionLost: boolean): void {
    if (this.core.closed) return;
    if (sessionLost) this.watchPlaced = false;
    if (this.watchPlaced) {
      this.reload();
      return;
    }
    this.placeWatch().then(
      () => this.reload(),
      (error: unknown) => {
        // A connection error: the next reconnect tries again. Anything else is reported.
        if (!isRetryable(error)) this.core.error(error);
      },
    );
  }

  async close(): Promise<void> {
    await this.placing?.catch(() => {});
    if (!this.watchPlaced) return;
    this.watchPlaced = false;
    await this.core.client
      .removeWatches(this.core.root, 'any', { watcher: this.watcher, local: true })
      .catch(() => {}); // already gone with the session, or the client closed: no watch is left either way
  }

  private placeWatch(): Promise<void> {
    this.placing ??= this.core.client.addWatch(this.core.root, 'persistent-recursive', this.watcher).then(
      () => {
        this.placing = undefined;
        this.watchPlaced = true; // close() waits for this request, then takes the watch off
      },
      (error: unknown) => {
        this.placing = undefined;
        throw error;
      },
    );
    return this.placing;
  }

  /** Re-reads the root and every cached node; listings only where children may have moved. */
  private reload(): void {
    if (this.core.closed) return;
    this.core.loadStarting();
    this.loader.refresh(this.core.root, 'if-changed');
    for (const path of this.core.tree.paths()) {
      if (path !== this.core.root) this.loader.refresh(path, 'if-changed');
    }
  }

  private onWatchEvent(event: CacheWatchEvent): void {
    if (this.core.closed || this.core.scopeDepth(event.path) < 0) return;
    switch (event.type) {
      case 'created':
      case 'dataChanged':
        this.loader.refresh(event.path, 'if-changed');
        break;
      case 'deleted':
        this.core.applyGone(event.path);
        break;
      default:
        // childrenChanged (recursive watches do not send it, but ZOOKEEPER-4475 servers may) and removals.
        break;
    }
  }
}
