/**
 * The cache's local copy of the tree, kept small: each node is a slot of the compact {@link NodeStore}, and
 * each node with cached children has a map of child name → slot. A node's full path is not stored (it is
 * rebuilt on the way down), so a cached node costs a name and a map entry instead of a whole path string,
 * a map entry and an index entry. Curator's `StandardCuratorCacheStorage` is a map of full path → ChildData.
 *
 * A node may be stored before its parent (a read answered out of the usual order): the parent then holds a
 * reserved slot, which is not a cached node (not counted, not returned) until the parent's own read fills it.
 */
import { Buffer } from 'node:buffer';
import type { CacheStat, ChildData } from './cache-types.js';
import { NodeStore } from './node-store.js';

/** The parent path of a node path (`/a/b` → `/a`, `/a` → `/`). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** The path of child `name` under `parent`. */
export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/**
 * `name` as a string of its own, for a map key that lives as long as its node. V8 makes a substring of 13
 * characters or more a view of the string it was cut from (a sliced string): a child name cut from a path
 * would keep that whole path alive (and a name from a listing, the whole listing). Shorter ones are copies.
 */
function ownString(name: string): string {
  if (name.length < 13) return name;
  const copy = Buffer.from(name, 'utf8').toString('utf8');
  return copy === name ? copy : name; // not well-formed UTF-16 (no server sends that): keep it exact
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

/** The local copy of the subtree under one root. */
export class CacheTree {
  private readonly store = new NodeStore();
  /** Per slot: child name → slot, for nodes with cached (or reserved) children. */
  private readonly kids: (Map<string, number> | undefined)[] = [];
  private rootSlot = -1;
  private count = 0;
  private readonly prefix: string;

  constructor(readonly root: string) {
    this.prefix = root === '/' ? '/' : `${root}/`;
  }

  /** Number of cached nodes. */
  get size(): number {
    return this.count;
  }

  /** The node at `path` (a new object each call), or undefined. */
  get(path: string): ChildData | undefined {
    const slot = this.find(path);
    return slot === undefined || this.store.isReserved(slot) ? undefined : this.store.read(slot, path);
  }

  has(path: string): boolean {
    const slot = this.find(path);
    return slot !== undefined && !this.store.isReserved(slot);
  }

  /** Stores a node of the root's subtree; returns what it replaced. Paths outside the subtree are ignored. */
  set(path: string, stat: CacheStat, data: Uint8Array | null): ChildData | undefined {
    const segments = this.segmentsOf(path);
    if (segments === undefined) return undefined;
    if (this.rootSlot < 0) this.rootSlot = this.store.reserve();
    let slot = this.rootSlot;
    for (const name of segments) {
      let map = this.kids[slot];
      if (map === undefined) this.kids[slot] = map = new Map();
      let next = map.get(name);
      if (next === undefined) map.set(ownString(name), (next = this.store.reserve()));
      slot = next;
    }
    if (this.store.isReserved(slot)) {
      this.store.replace(slot, stat, data);
      this.count++;
      return undefined;
    }
    const previous = this.store.read(slot, path);
    this.store.replace(slot, stat, data);
    return previous;
  }

  /** Paths of the direct children of `path` held here (reserved ones included). */
  childPaths(path: string): string[] {
    const slot = this.find(path);
    const map = slot === undefined ? undefined : this.kids[slot];
    return map === undefined ? [] : [...map.keys()].map((name) => childPath(path, name));
  }

  /** The cached direct children of `path`, sorted by name. */
  children(path: string): ChildData[] {
    const slot = this.find(path);
    const map = slot === undefined ? undefined : this.kids[slot];
    if (map === undefined) return [];
    const out: ChildData[] = [];
    for (const name of [...map.keys()].sort()) {
      const child = map.get(name) as number;
      if (!this.store.isReserved(child)) out.push(this.store.read(child, childPath(path, name)));
    }
    return out;
  }

  /**
   * Removes `path` and every cached descendant; returns what was removed, deepest first, so that a listener
   * never hears of a parent's deletion before its children's.
   */
  removeSubtree(path: string): ChildData[] {
    const segments = this.segmentsOf(path);
    if (segments === undefined || this.rootSlot < 0) return [];
    const removed: ChildData[] = [];
    if (segments.length === 0) {
      this.removeSlot(this.rootSlot, path, removed);
      this.rootSlot = -1;
      return removed;
    }
    const parent = parentOf(path);
    const parentSlot = this.find(parent);
    const siblings = parentSlot === undefined ? undefined : this.kids[parentSlot];
    const name = segments[segments.length - 1] as string;
    const slot = siblings?.get(name);
    if (slot === undefined || siblings === undefined || parentSlot === undefined) return [];
    this.removeSlot(slot, path, removed);
    siblings.delete(name);
    if (siblings.size === 0) this.kids[parentSlot] = undefined;
    // A reserved parent left without children held nothing: let it go too.
    if (this.store.isReserved(parentSlot) && this.kids[parentSlot] === undefined) {
      const gone = this.removeSubtree(parent);
      removed.push(...gone);
    }
    return removed;
  }

  /** Every path in the cache (a copy; no node is read, so a resync of a large cache makes no entries). */
  paths(): string[] {
    const out: string[] = [];
    this.walk((_slot, path) => out.push(path));
    return out;
  }

  /** Every entry at this moment (new objects, parents before children: later changes do not show in them). */
  snapshot(): ChildData[] {
    const out: ChildData[] = [];
    this.walk((slot, path) => out.push(this.store.read(slot, path)));
    return out;
  }

  /** Gives back the room kept for growth (after the initial load). */
  trim(): void {
    this.store.trim();
  }

  clear(): void {
    this.store.clear();
    this.kids.length = 0;
    this.rootSlot = -1;
    this.count = 0;
  }

  /** Calls `visit` for every cached node (reserved slots skipped), parents before children. */
  private walk(visit: (slot: number, path: string) => void): void {
    const down = (slot: number, path: string) => {
      if (!this.store.isReserved(slot)) visit(slot, path);
      const map = this.kids[slot];
      if (map !== undefined) for (const [name, child] of map) down(child, childPath(path, name));
    };
    if (this.rootSlot >= 0) down(this.rootSlot, this.root);
  }

  /** The names below the root leading to `path`; undefined outside the root's subtree. */
  private segmentsOf(path: string): string[] | undefined {
    if (path === this.root) return [];
    if (!path.startsWith(this.prefix) || path.length === this.prefix.length) return undefined;
    return path.slice(this.prefix.length).split('/');
  }

  /** The slot at `path` (cached or reserved), or undefined. */
  private find(path: string): number | undefined {
    const segments = this.segmentsOf(path);
    if (segments === undefined || this.rootSlot < 0) return undefined;
    let slot: number | undefined = this.rootSlot;
    for (const name of segments) {
      slot = this.kids[slot]?.get(name);
      if (slot === undefined) return undefined;
    }
    return slot;
  }

  /** Frees `slot` and everything under it; collects the cached ones, deepest first. */
  private removeSlot(slot: number, path: string, removed: ChildData[]): void {
    const map = this.kids[slot];
    if (map !== undefined)
      for (const [name, child] of map) this.removeSlot(child, childPath(path, name), removed);
    this.kids[slot] = undefined;
    if (!this.store.isReserved(slot)) {
      removed.push(this.store.read(slot, path));
      this.count--;
    }
    this.store.free(slot);
  }
}
