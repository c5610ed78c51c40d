/**
 * The cache's local copy of the tree: full path → a slot of the compact {@link NodeStore} (Curator's
 * `StandardCuratorCacheStorage` keeps a map of ChildData objects; this keeps the same content in a few
 * typed arrays), plus an index of each node's cached children so that `children(path)` and removing a
 * subtree do not scan the whole map.
 */
import type { CacheStat } from './cache-client.js';
import { NodeStore } from './node-store.js';

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

/** The local tree: path → slot, the slots' store, and an index of children per parent. */
export class CacheTree {
  private readonly slots = new Map<string, number>();
  private readonly store = new NodeStore();
  private readonly childrenIndex = new Map<string, Set<string>>();

  /** Number of cached nodes. */
  get size(): number {
    return this.slots.size;
  }

  /** The node at `path` (a new object each call), or undefined. */
  get(path: string): ChildData | undefined {
    const slot = this.slots.get(path);
    return slot === undefined ? undefined : this.store.read(slot, path);
  }

  has(path: string): boolean {
    return this.slots.has(path);
  }

  /** Stores a node; returns what it replaced. */
  set(path: string, stat: CacheStat, data: Uint8Array | null): ChildData | undefined {
    const slot = this.slots.get(path);
    if (slot !== undefined) {
      const previous = this.store.read(slot, path);
      this.store.replace(slot, stat, data);
      return previous;
    }
    this.slots.set(path, this.store.add(stat, data));
    const parent = parentOf(path);
    let set = this.childrenIndex.get(parent);
    if (set === undefined) this.childrenIndex.set(parent, (set = new Set()));
    set.add(path);
    return undefined;
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
      const slot = this.slots.get(node);
      if (slot === undefined) return;
      removed.push(this.store.read(slot, node));
      this.store.free(slot);
      this.slots.delete(node);
      this.childrenIndex.delete(node);
      const parent = parentOf(node);
      const siblings = this.childrenIndex.get(parent);
      siblings?.delete(node);
      if (siblings?.size === 0) this.childrenIndex.delete(parent);
    };
    visit(path);
    return removed;
  }

  /** Every path in the cache (a copy). */
  paths(): string[] {
    return [...this.slots.keys()];
  }

  /** Every entry at this moment (new objects: later changes do not show in them). */
  snapshot(): ChildData[] {
    const out: ChildData[] = [];
    for (const [path, slot] of this.slots) out.push(this.store.read(slot, path));
    return out;
  }

  /** Gives back the room kept for growth (after the initial load). */
  trim(): void {
    this.store.trim();
  }

  clear(): void {
    this.slots.clear();
    this.store.clear();
    this.childrenIndex.clear();
  }
}
