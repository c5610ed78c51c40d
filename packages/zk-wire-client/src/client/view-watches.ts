/**
 * The watches a chroot view registered with its parent, so that closing the view can remove them and nothing
 * else. Each (parent path, watcher) pair gets one wrapper function: the parent's watch tables keep one entry
 * per function, so a watcher armed twice on a path fires once, as on the client itself, while the same
 * watcher in two views is two wrappers and fires in each, with each view's path.
 */
import type { WatchEvent, WatchEventType, Watcher } from '../util/types.js';

/** How a watcher is armed at a path: one-shot data (getData, exists), one-shot children, or persistent. */
export type ViewWatchKind = 'data' | 'children' | 'persistent';

interface Armed {
  readonly wrapper: Watcher;
  data: boolean;
  children: boolean;
  persistent: boolean;
}

/** The one-shot kinds an event ends (a fired one-shot watch is gone from the server and the client). */
const ENDS: Partial<Record<WatchEventType, readonly ('data' | 'children')[]>> = {
  created: ['data'],
  dataChanged: ['data'],
  dataWatchRemoved: ['data'],
  childrenChanged: ['children'],
  childWatchRemoved: ['children'],
  deleted: ['data', 'children'],
  sessionExpired: ['data', 'children'],
};

export class ViewWatches {
  /** Parent path → the view's watchers armed there. */
  private readonly armed = new Map<string, Map<Watcher, Armed>>();

  /**
   * @param deliver hands an event (still with the parent's path) to the application's watcher; it returns
   *   nothing and may throw (the error then goes to the parent's `watcherError`).
   */
  constructor(private readonly deliver: (watcher: Watcher, event: WatchEvent) => void) {}

  /** The function to give the parent for `watcher` armed at `parentPath` as `kind`. */
  wrap(parentPath: string, watcher: Watcher, kind: ViewWatchKind): Watcher {
    let atPath = this.armed.get(parentPath);
    if (atPath === undefined) {
      atPath = new Map();
      this.armed.set(parentPath, atPath);
    }
    let entry = atPath.get(watcher);
    if (entry === undefined) {
      const wrapper: Watcher = (event) => {
        this.settle(parentPath, watcher, event.type);
        this.deliver(watcher, event);
      };
      entry = { wrapper, data: false, children: false, persistent: false };
      atPath.set(watcher, entry);
    }
    entry[kind] = true;
    return entry.wrapper;
  }

  /** The wrapper already given to the parent for `watcher` at `parentPath` (to remove or check it). */
  wrapperOf(parentPath: string, watcher: Watcher): Watcher | undefined {
    return this.armed.get(parentPath)?.get(watcher)?.wrapper;
  }

  /** The wrappers of this view's watchers armed at `parentPath`. */
  wrappersAt(parentPath: string): Watcher[] {
    return [...(this.armed.get(parentPath)?.values() ?? [])].map((entry) => entry.wrapper);
  }

  /** Every (parent path, wrapper) still armed, and forgets them all. */
  takeAll(): { path: string; wrapper: Watcher }[] {
    const all: { path: string; wrapper: Watcher }[] = [];
    for (const [path, atPath] of this.armed)
      for (const entry of atPath.values()) all.push({ path, wrapper: entry.wrapper });
    this.armed.clear();
    return all;
  }

  /** Forgets the kinds an event ended, and the pair once nothing of it is armed. */
  private settle(parentPath: string, watcher: Watcher, type: WatchEventType): void {
    const atPath = this.armed.get(parentPath);
    const entry = atPath?.get(watcher);
    if (atPath === undefined || entry === undefined) return;
    for (const kind of ENDS[type] ?? []) entry[kind] = false;
    if (type === 'persistentWatchRemoved') entry.persistent = false;
    if (entry.data || entry.children || entry.persistent) return;
    atPath.delete(watcher);
    if (atPath.size === 0) this.armed.delete(parentPath);
  }
}
