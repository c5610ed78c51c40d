/**
 * The engine for servers without persistent watches (3.5), with the same public behaviour: every cached node
 * carries a one-shot data watch (armed by its `getData`) and, when its children are cached, a one-shot child
 * watch (armed by its `getChildren`); a missing root carries an exists watch. Each event re-arms what it
 * consumed with the read it needs anyway. After a reconnect the tree is re-read with the watches (which also
 * re-arms everything a session expiry took away).
 */

import type { CacheCore } from './cache-core.js';
import type { CacheEngineDriver } from './cache-engine.js';
import type { CacheWatchEvent } from './cache-types.js';
import { TreeLoader } from './tree-loader.js';

/** One-shot data and child watches on every cached node. */
export class OneShotWatchEngine implements CacheEngineDriver {
  readonly kind = 'one-shot-watches' as const;
  private readonly loader: TreeLoader;
  /** Paths where the server holds our data (or exists) watch, and our child watch. */
  private readonly armedData = new Set<string>();
  private readonly armedChild = new Set<string>();
  private readonly dataWatcher = (event: CacheWatchEvent) => this.onDataEvent(event);
  private readonly childWatcher = (event: CacheWatchEvent) => this.onChildEvent(event);

  constructor(private readonly core: CacheCore) {
    this.loader = new TreeLoader(core, {
      dataWatch: this.dataWatcher,
      childWatch: this.childWatcher,
      armed: (kind, path) => (kind === 'data' ? this.armedData : this.armedChild).add(path),
      rootMissing: () => this.loader.watchMissingRoot('always'),
    });
  }

  async start(): Promise<void> {
    this.reload();
  }

  resync(sessionLost: boolean): void {
    if (this.core.closed) return;
    if (sessionLost) {
      this.armedData.clear();
      this.armedChild.clear();
    }
    this.reload();
  }

  async close(): Promise<void> {
    const client = this.core.client;
    const removals = [
      ...[...this.armedData].map((path) =>
        client.removeWatches(path, 'data', { watcher: this.dataWatcher, local: true }),
      ),
      ...[...this.armedChild].map((path) =>
        client.removeWatches(path, 'children', { watcher: this.childWatcher, local: true }),
      ),
    ];
    this.armedData.clear();
    this.armedChild.clear();
    // A failure is NoWatcher (the watch fired meanwhile) or a closed client: no watch survives either way.
    await Promise.allSettled(removals);
  }

  /** Reads the whole cached tree again, re-arming every watch on the way. */
  private reload(): void {
    this.core.loadStarting();
    this.loader.refresh(this.core.root, 'always');
  }

  private onDataEvent(event: CacheWatchEvent): void {
    const { type, path } = event;
    this.armedData.delete(path);
    if (this.core.closed) return;
    if (type === 'dataChanged') {
      this.loader.refresh(path, 'never');
    } else if (type === 'deleted') {
      this.core.applyGone(path);
      if (path === this.core.root) this.loader.watchMissingRoot('always');
    } else if (type === 'created' && path === this.core.root) {
      this.loader.refresh(path, 'always');
    }
    // dataWatchRemoved, sessionExpired: nothing to re-read (a resync follows an expiry).
  }

  private onChildEvent(event: CacheWatchEvent): void {
    const { type, path } = event;
    this.armedChild.delete(path);
    if (this.core.closed) return;
    if (type === 'childrenChanged') this.loader.list(path, 'new', 'always');
    else if (type === 'deleted') this.core.applyGone(path);
  }
}
