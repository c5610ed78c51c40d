/**
 * A chroot view's watch calls on the way to its parent: watchers wrapped (view-watches.ts) before the parent
 * sees them, removals and checks narrowed to the view's own watchers, and persistent watch loops whose events
 * come back with view paths.
 */
import type { Chroot } from '../util/paths.js';
import type { WatchEvent, Watcher } from '../util/types.js';
import type { WatchOptions } from './client-types.js';
import { linkSignals } from './linked-signal.js';
import type { ViewWatches, ViewWatchKind } from './view-watches.js';

/** The options with the watch wrapped for the view (passed on as they are when there is none). */
export function watching(
  watches: ViewWatches,
  parentPath: string,
  options: WatchOptions | undefined,
  kind: ViewWatchKind,
): WatchOptions | undefined {
  if (typeof options !== 'object' || options === null || typeof options.watch !== 'function') return options;
  return { ...options, watch: watches.wrap(parentPath, options.watch, kind) };
}

/**
 * Runs a removal or check of watchers for the view's own watchers only: the one given as `watcher` (by the
 * wrapper the parent knows it by), or, without one, each watcher the view armed at the path, never the
 * parent's or another view's. Succeeds when it did for any of them; else fails as the first did (NoWatcher
 * when the view has none there, as the client does for a path it watches nothing on).
 */
export function eachOwnWatcher<O extends { watcher?: Watcher }>(
  watches: ViewWatches,
  parentPath: string,
  options: O,
  call: (options: O) => Promise<void>,
): Promise<void> {
  if (typeof options !== 'object' || options === null) return call(options);
  if (options.watcher !== undefined) {
    if (typeof options.watcher !== 'function') return call(options);
    // A watcher this view never armed there is a function the parent does not know either (NoWatcher).
    const wrapper = watches.wrapperOf(parentPath, options.watcher) ?? (() => {});
    return call({ ...options, watcher: wrapper });
  }
  const wrappers = watches.wrappersAt(parentPath);
  // None: the parent is asked for a watcher it cannot have, and answers as it does for an unwatched path.
  if (wrappers.length === 0) return call({ ...options, watcher: () => {} });
  return Promise.allSettled(wrappers.map((watcher) => call({ ...options, watcher }))).then((outcomes) => {
    if (outcomes.some((outcome) => outcome.status === 'fulfilled')) return;
    throw (outcomes[0] as PromiseRejectedResult).reason;
  });
}

/**
 * The parent's persistent watch loop at `parentPath`, with view paths: it also ends when the view closes
 * (`closing`), and the link between the caller's signal and `closing` is let go when the loop ends, fails
 * or is left.
 */
export function viewEvents(
  parent: {
    watchPersistent(
      path: string,
      options: { recursive?: boolean; signal?: AbortSignal },
    ): AsyncIterable<WatchEvent>;
  },
  parentPath: string,
  options: { recursive?: boolean; signal?: AbortSignal },
  closing: AbortSignal,
  root: Chroot,
): AsyncIterableIterator<WatchEvent> {
  const own = typeof options === 'object' && options !== null ? options.signal : undefined;
  const link = linkSignals(own, closing);
  const inner = parent
    .watchPersistent(parentPath, { ...options, signal: link.signal })
    [Symbol.asyncIterator]();
  const iterator: AsyncIterableIterator<WatchEvent> = {
    next: async () => {
      const next = await inner.next().catch((error: unknown) => {
        link.dispose();
        throw error;
      });
      if (next.done === true) {
        link.dispose();
        return next;
      }
      return { done: false, value: { ...next.value, path: root.toClient(next.value.path) } };
    },
    return: async () => {
      link.dispose();
      await inner.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** An iterator whose first `next()` rejects with `error` (a refused loop, as the client's). */
export function refusedLoop(error: unknown): AsyncIterableIterator<WatchEvent> {
  const iterator: AsyncIterableIterator<WatchEvent> = {
    next: () => Promise.reject(error),
    return: () => Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
