/**
 * The cache's local copy of the tree: a map of full path → {@link ChildData} (Curator's
 * `StandardCuratorCacheStorage`), plus an index of each node's cached children so that `children(path)`
 * and removing a subtree do not scan the whole map.
 */
import type { CacheStat } from './cache-client.js';

/** One cached node (Curator's `ChildData`): full path, Stat, and the bytes (`null` when data is not kept). */
export interface ChildData {
  readonly path: string;
  readonly stat: CacheStat;
  readonly data: Uint8Array | null;
}

/** The parent path of a node path (`/a/b` → `/a`, `/a` → `/`). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** The path of child `name` under `parent`. */
export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** Depth of `path` below `root`: 0 for the root itself, -1 when `path` is not in the root's subtree. */
export function depthBelow(root: string, path: string): number {
  if (path === root) return 0;
  const prefix = root === '/' ? '/' : `${root}/`;
  if (!path.startsWith(prefix)) return -1;
  let depth = 1;
  for (let i = prefix.length; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++;
  return depth;
}

/** The local tree: one map of entries and one index of children per parent. */
export class CacheTree {
  private readonly entries = new Map<string, ChildData>();
  private readonly childrenIndex = new Map<string, Set<string>>();

  /** Number of cached nodes. */
  get size(): number {
    return this.entries.size;
  }

  get(path: string): ChildData | undefined {
    return this.entries.get(path);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Stores an entry; returns the one it replaced. */
  set(entry: ChildData): ChildData | undefined {
    const previous = this.entries.get(entry.path);
    this.entries.set(entry.path, entry);
    if (previous === undefined) {
      const parent = parentOf(entry.path);
      let set = this.childrenIndex.get(parent);
      if (set === undefined) this.childrenIndex.set(parent, (set = new Set()));
      set.add(entry.path);
    }
    return previous;
  }

  /** Cached paths of the direct children of `path`. */
  childPaths(path: string): string[] {
    const set = this.childrenIndex.get(path);
    return set === undefined ? [] : [...set];
  }

  /**
   * Removes `path` and every cached descendant; returns what was removed, deepest first, so that a listener
   * never hears of a parent's deletion before its children's.
   */
  removeSubtree(path: string): ChildData[] {
    const removed: ChildData[] = [];
    const visit = (node: string) => {
      for (const child of this.childPaths(node)) visit(child);
      const entry = this.entries.get(node);
      if (entry === undefined) return;
      this.entries.delete(node);
      this.childrenIndex.delete(node);
      const parent = parentOf(node);
      const siblings = this.childrenIndex.get(parent);
      siblings?.delete(node);
      if (siblings?.size === 0) this.childrenIndex.delete(parent);
      removed.push(entry);
    };
    visit(path);
    return removed;
  }

  /** Every path in the cache (a copy). */
  paths(): string[] {
    return [...this.entries.keys()];
  }

  /** Every entry at this moment (a copy: later changes do not show in it). */
  snapshot(): ChildData[] {
    return [...this.entries.values()];
  }

  clear(): void {
    this.entries.clear();
    this.childrenIndex.clear();
  }
}
