/**
 * The client-side watch tables (wire-protocol.md §6.2-6.4): which local watchers a reply registers, which ones
 * an event reaches, and the lists sent to restore them after a reconnect.
 *
 * The server keeps at most one watch per (connection, path, table); several local watchers share it, so every
 * event fans out to all matching watchers, each called once per event even if registered several ways.
 * Tables are keyed by client paths.
 */
import type { WatchEvent, Watcher, WatchType } from './types.js';

/** The five tables. `exist` holds exists() watches on nodes that did not exist when they were set. */
export const WatchKind = {
  data: 'data',
  exist: 'exist',
  child: 'child',
  persistent: 'persistent',
  persistentRecursive: 'persistentRecursive',
} as const;
/** One of the watch tables. */
export type WatchKind = (typeof WatchKind)[keyof typeof WatchKind];

const KINDS: readonly WatchKind[] = ['data', 'exist', 'child', 'persistent', 'persistentRecursive'];

/** The tables a removal of the given type touches. */
export function kindsOfType(type: WatchType): readonly WatchKind[] {
  if (type === 'children') return ['child'];
  if (type === 'data') return ['data', 'exist'];
  return KINDS;
}

/** The event a watcher removed from a table receives. */
export function removalEventType(kind: WatchKind): WatchEvent['type'] {
  if (kind === 'child') return 'childWatchRemoved';
  if (kind === 'data' || kind === 'exist') return 'dataWatchRemoved';
  return 'persistentWatchRemoved';
}

/** A watcher taken out of a table, with the table it was in. */
export interface RemovedWatcher {
  kind: WatchKind;
  watcher: Watcher;
}

/** The registration tables of one client. */
export class WatchTables {
  private readonly tables: Record<WatchKind, Map<string, Set<Watcher>>> = {
    data: new Map(),
    exist: new Map(),
    child: new Map(),
    persistent: new Map(),
    persistentRecursive: new Map(),
  };

  /** Adds a watcher to a table. */
  add(kind: WatchKind, path: string, watcher: Watcher): void {
    const table = this.tables[kind];
    let set = table.get(path);
    if (set === undefined) table.set(path, (set = new Set()));
    set.add(watcher);
  }

  /** True when no watcher is registered anywhere. */
  get isEmpty(): boolean {
    return KINDS.every((k) => this.tables[k].size === 0);
  }

  /** True when any persistent or persistent-recursive watch is registered (SetWatches2 needed). */
  get hasPersistent(): boolean {
    return this.tables.persistent.size > 0 || this.tables.persistentRecursive.size > 0;
  }

  /**
   * Whether a persistent watch of this client already makes the server send what a one-shot watch of the
   * given table at `path` waits for. The read must then not arm a server watch: servers 3.6 to 3.8 keep one
   * mode per path and connection, and a one-shot watch there would turn the persistent one into a one-shot
   * (ZOOKEEPER-4466). Recursive watches live in the data table only.
   */
  coveredByPersistent(kind: 'data' | 'child', path: string): boolean {
    const t = this.tables;
    if (t.persistent.size === 0 && t.persistentRecursive.size === 0) return false;
    return t.persistent.has(path) || (kind === 'data' && t.persistentRecursive.has(path));
  }

  /** The watchers of a table at a path (a copy). */
  watchersAt(kind: WatchKind, path: string): Watcher[] {
    return [...(this.tables[kind].get(path) ?? [])];
  }

  /** Whether a watcher (or any watcher when none is given) of the given type is registered at the path. */
  has(path: string, type: WatchType, watcher?: Watcher): boolean {
    for (const kind of kindsOfType(type)) {
      const set = this.tables[kind].get(path);
      if (set !== undefined && (watcher === undefined ? set.size > 0 : set.has(watcher))) return true;
    }
    return false;
  }

  /**
   * Removes one watcher (or all when none is given) of the type at the path, and returns what was removed so
   * that each removed watcher can be told.
   */
  remove(path: string, type: WatchType, watcher?: Watcher): RemovedWatcher[] {
    const removed: RemovedWatcher[] = [];
    for (const kind of kindsOfType(type)) {
      const table = this.tables[kind];
      const set = table.get(path);
      if (set === undefined) continue;
      if (watcher === undefined) {
        for (const w of set) removed.push({ kind, watcher: w });
        table.delete(path);
      } else if (set.delete(watcher)) {
        removed.push({ kind, watcher });
        if (set.size === 0) table.delete(path);
      }
    }
    return removed;
  }

  /**
   * The watchers an event reaches (§6.4), each once. One-shot watchers are taken out of their tables;
   * persistent ones stay. Recursive watchers never get childrenChanged.
   */
  collect(event: WatchEvent): Set<Watcher> {
    const out = new Set<Watcher>();
    const { path, type } = event;
    const t = this.tables;
    const take = (table: Map<string, Set<Watcher>>) => {
      const set = table.get(path);
      if (set === undefined) return;
      table.delete(path);
      for (const w of set) out.add(w);
    };
    const keep = (table: Map<string, Set<Watcher>>, at: string) => {
      const set = table.get(at);
      if (set !== undefined) for (const w of set) out.add(w);
    };
    if (type === 'created' || type === 'dataChanged') {
      take(t.data);
      take(t.exist);
    } else if (type === 'childrenChanged') {
      take(t.child);
    } else if (type === 'deleted') {
      take(t.data);
      take(t.exist);
      take(t.child);
    } else {
      return out;
    }
    keep(t.persistent, path);
    if (type !== 'childrenChanged' && t.persistentRecursive.size > 0) {
      let at = path;
      for (;;) {
        keep(t.persistentRecursive, at);
        if (at === '/') break;
        const i = at.lastIndexOf('/');
        at = i <= 0 ? '/' : at.slice(0, i);
      }
    }
    return out;
  }

  /** The paths of each table, for SetWatches after a reconnect. */
  snapshot(): Record<WatchKind, string[]> {
    return {
      data: [...this.tables.data.keys()],
      exist: [...this.tables.exist.keys()],
      child: [...this.tables.child.keys()],
      persistent: [...this.tables.persistent.keys()],
      persistentRecursive: [...this.tables.persistentRecursive.keys()],
    };
  }

  /** The one-shot watchers (data, exist, child tables) by path, each watcher once per path. */
  oneShotByPath(): Map<string, Set<Watcher>> {
    const out = new Map<string, Set<Watcher>>();
    for (const kind of ['data', 'exist', 'child'] as const) {
      for (const [path, watchers] of this.tables[kind]) {
        let set = out.get(path);
        if (set === undefined) out.set(path, (set = new Set()));
        for (const w of watchers) set.add(w);
      }
    }
    return out;
  }

  /** Empties every table. */
  clear(): void {
    for (const kind of KINDS) this.tables[kind].clear();
  }
}
