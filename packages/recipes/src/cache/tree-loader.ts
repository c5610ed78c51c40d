/**
 * The pipelined reads that fill and refresh the cache. Nothing waits for a whole level: each `getData` reply
 * immediately sends its node's `getChildren`, and each listing immediately sends a `getData` per child, so
 * listings and reads of every level are in flight together and a tree loads in about as many round trips as
 * it is deep, not one per node.
 */
import { isNoNode, isRetryable } from '../internal-common/zk-errors.js';
import type { CacheCore } from './cache-core.js';
import { childPath } from './cache-tree.js';
import type { CacheWatcher } from './cache-types.js';

/** When a refreshed node's children are listed. */
export type ListMode =
  /** Always (the one-shot engine: every listing re-arms the node's child watch). */
  | 'always'
  /** When the node is new or its `cversion` moved (the persistent-watch engine, as Curator). */
  | 'if-changed'
  /** Never (a data-only change). */
  | 'never';

/** How an engine takes part in the reads: the watches they arm, and what to do about a missing root. */
export interface LoaderHooks {
  /** One-shot data watch armed by every getData (and by exists on a missing root). */
  readonly dataWatch?: CacheWatcher;
  /** One-shot child watch armed by every getChildren. */
  readonly childWatch?: CacheWatcher;
  /** A watched read succeeded: the server now holds that watch. */
  armed?(kind: 'data' | 'child', path: string): void;
  /** The root does not exist (getData answered NoNode). */
  rootMissing?(): void;
}

/** Issues the reads of one cache. */
export class TreeLoader {
  constructor(
    private readonly core: CacheCore,
    private readonly hooks: LoaderHooks = {},
  ) {}

  /** Reads `path` (storing it, with its event), then lists its children as `list` says. */
  refresh(path: string, list: ListMode): void {
    const core = this.core;
    if (core.scopeDepth(path) < 0) return;
    const watch = this.hooks.dataWatch;
    core.track(
      core.client.getData(path, watch ? { watch } : undefined),
      ({ data, stat }) => {
        if (watch) this.hooks.armed?.('data', path);
        const applied = core.applyData(path, core.nodeData(path, data), stat);
        if (applied === undefined || !core.listsChildrenOf(path)) return;
        if (list === 'always' || (list === 'if-changed' && applied.childrenMoved))
          this.list(path, 'all', list);
      },
      (error) => this.failed(path, error, () => this.refresh(path, list)),
    );
  }

  /**
   * Lists `path`'s children: cached children missing from the listing leave the cache, and every listed
   * child (`'all'`) or only those not cached yet (`'new'`) is refreshed with `childList`.
   */
  list(path: string, which: 'all' | 'new', childList: ListMode): void {
    const core = this.core;
    const watch = this.hooks.childWatch;
    core.track(
      core.client.getChildren(path, watch ? { watch } : undefined),
      (names) => {
        if (watch) this.hooks.armed?.('child', path);
        const listed = new Set(names.map((name) => childPath(path, name)));
        for (const cached of core.tree.childPaths(path)) if (!listed.has(cached)) core.applyGone(cached);
        for (const child of listed) {
          if (which === 'all' || !core.tree.has(child)) this.refresh(child, childList);
        }
      },
      (error) => this.failed(path, error, () => this.list(path, which, childList)),
    );
  }

  /** Arms an exists watch on a missing root; refreshes it if it appeared meanwhile. */
  watchMissingRoot(list: ListMode): void {
    const core = this.core;
    const watch = this.hooks.dataWatch;
    core.track(
      core.client.exists(core.root, watch ? { watch } : undefined),
      (stat) => {
        if (watch) this.hooks.armed?.('data', core.root);
        if (stat !== null) this.refresh(core.root, list);
      },
      (error) => this.failed(core.root, error, () => this.watchMissingRoot(list)),
    );
  }

  private failed(path: string, error: unknown, again: () => void): void {
    if ((error as { code?: unknown } | null)?.code === 'OPERATIONTIMEOUT') {
      // The connection is up but the reply was slow: nothing else would redo this read, so redo it now.
      again();
    } else if (isNoNode(error)) {
      this.core.applyGone(path);
      if (path === this.core.root) this.hooks.rootMissing?.();
    } else if (isRetryable(error) || isSessionOrClosed(error)) {
      // The connection or session dropped: the resync that follows the reconnect reads this again.
      this.core.markIncomplete();
    } else {
      this.core.error(error);
    }
  }
}

function isSessionOrClosed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SESSIONEXPIRED' || code === 'CLIENTCLOSED' || code === 'SESSIONMOVED';
}
