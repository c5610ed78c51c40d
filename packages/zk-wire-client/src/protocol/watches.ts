/**
 * The client-side watch tables (wire-protocol.md §6.2-6.4): which local watchers a reply registers, which ones
 * an event reaches, and the lists sent to restore them after a reconnect.
 *
 * The server keeps at most one watch per (connection, path, table); several local watchers share it, so every
 * event fans out to all matching watchers, each called once per event even if registered several ways.
 * Tables are keyed by client paths.
 */
import type { WatchEvent, Watcher, WatchType } from '../util/types.js';

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
  if (type === 'persistent') return ['persistent'];
  if (type === 'persistent-recursive') return ['persistentRecursive'];
  return KINDS;
}

/** The event a watcher removed from a table receives. */
export function removalEventType(kind: WatchKind): WatchEvent['type'] {
  if (kind === 'child') return 'childWatchRemoved';
  if (kind === 'data' || kind === 'exist') return 'dataWatchRemoved';
  return 'persistentWatchRemoved';
}

/**
 * One path's watchers in a table: the watcher itself while it is alone, as at almost every path, and a Set
 * only once a second one joins: a Set per path would be the largest part of what an armed watch costs.
 */
type Entry = Watcher | Set<Watcher>;
type Table = Map<string, Entry>;

/** Calls `f` for each watcher of an entry. */
function forEachWatcher(entry: Entry | undefined, f: (watcher: Watcher) => void): void {
  if (entry === undefined) return;
  if (typeof entry === 'function') f(entry);
  else for (const w of entry) f(w);
}

/** A watcher taken out of a table, with the table it was in. */
export interface RemovedWatcher {
  kind: WatchKind;
  watcher: Watcher;
}

/**
 * The registration tables of one client. A table is made with its first watcher: most clients use one or
 * two of the five, and an empty Map is about 170 bytes, a tenth of what an idle session costs.
 */
export class WatchTables {
  private readonly tables: { [kind in WatchKind]?: Table } = {};

  /** The table of a kind, or undefined while it never had a watcher. */
  private tableOf(kind: WatchKind): Table | undefined {
    return this.tables[kind];
  }

  /** The number of paths in a table. */
  private sizeOf(kind: WatchKind): number {
    return this.tables[kind]?.size ?? 0;
  }

  /** Adds a watcher to a table. */
  add(kind: WatchKind, path: string, watcher: Watcher): void {
    let table = this.tables[kind];
    if (table === undefined) {
      table = new Map();
      this.tables[kind] = table;
    }
    const entry = table.get(path);
    if (entry === undefined) table.set(path, watcher);
    else if (typeof entry !== 'function') entry.add(watcher);
    else if (entry !== watcher) table.set(path, new Set([entry, watcher]));
  }

  /** True when no watcher is registered anywhere. */
  get isEmpty(): boolean {
    return KINDS.every((k) => this.sizeOf(k) === 0);
  }

  /** True when any persistent or persistent-recursive watch is registered (SetWatches2 needed). */
  get hasPersistent(): boolean {
    return this.sizeOf('persistent') > 0 || this.sizeOf('persistentRecursive') > 0;
  }

  /**
   * Whether a persistent watch of this client already makes the server send what a one-shot watch of the
   * given table at `path` waits for. The read must then not arm a server watch: servers 3.6 to 3.8 keep one
   * mode per path and connection, and a one-shot watch there would turn the persistent one into a one-shot
   * (ZOOKEEPER-4466). Recursive watches live in the data table only.
   */
  coveredByPersistent(kind: 'data' | 'child', path: string): boolean {
    const t = this.tables;
    return t.persistent?.has(path) === true || (kind === 'data' && t.persistentRecursive?.has(path) === true);
  }

  /** The watchers of a table at a path (a copy). */
  watchersAt(kind: WatchKind, path: string): Watcher[] {
    const out: Watcher[] = [];
    forEachWatcher(this.tableOf(kind)?.get(path), (w) => out.push(w));
    return out;
  }

  /** Whether a watcher (or any watcher when none is given) of the given type is registered at the path. */
  has(path: string, type: WatchType, watcher?: Watcher): boolean {
    for (const kind of kindsOfType(type)) {
      const entry = this.tableOf(kind)?.get(path);
      if (entry === undefined) continue;
      // an entry is never an empty Set: remove() drops the path with its last watcher
      if (watcher === undefined) return true;
      if (typeof entry === 'function' ? entry === watcher : entry.has(watcher)) return true;
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
      const table = this.tableOf(kind);
      const entry = table?.get(path);
      if (table === undefined || entry === undefined) continue;
      if (watcher === undefined) {
        forEachWatcher(entry, (w) => removed.push({ kind, watcher: w }));
        table.delete(path);
      } else if (typeof entry === 'function') {
        if (entry !== watcher) continue;
        removed.push({ kind, watcher });
        table.delete(path);
      } else if (entry.delete(watcher)) {
        removed.push({ kind, watcher });
        if (entry.size === 0) table.delete(path);
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
    const add = (w: Watcher) => out.add(w);
    const take = (table: Table | undefined) => {
      const entry = table?.get(path);
      if (table === undefined || entry === undefined) return;
      table.delete(path);
      forEachWatcher(entry, add);
    };
    const keep = (table: Table | undefined, at: string) => forEachWatcher(table?.get(at), add);
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
    if (type !== 'childrenChanged' && this.sizeOf('persistentRecursive') > 0) {
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
    const paths = (kind: WatchKind) => [...(this.tableOf(kind)?.keys() ?? [])];
    return {
      data: paths('data'),
      exist: paths('exist'),
      child: paths('child'),
      persistent: paths('persistent'),
      persistentRecursive: paths('persistentRecursive'),
    };
  }

  /** The one-shot watchers (data, exist, child tables) by path, each watcher once per path. */
  oneShotByPath(): Map<string, Set<Watcher>> {
    const out = new Map<string, Set<Watcher>>();
    for (const kind of ['data', 'exist', 'child'] as const) {
      for (const [path, entry] of this.tableOf(kind) ?? []) {
        let set = out.get(path);
        if (set === undefined) out.set(path, (set = new Set()));
        const into = set;
        forEachWatcher(entry, (w) => into.add(w));
      }
    }
    return out;
  }

  /** Empties every table. */
  clear(): void {
    for (const kind of KINDS) this.tableOf(kind)?.clear();
  }
}
