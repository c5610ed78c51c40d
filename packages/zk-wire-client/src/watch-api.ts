/**
 * The watch calls beyond one-shot reads: persistent watches (callback and async iterable), and removing or
 * checking watches by type and by watcher (wire-protocol.md §4.6, §6.5).
 */
import { AsyncQueue } from './async-queue.js';
import type { ClientCore } from './client-core.js';
import { InvalidArgumentError, NoWatcherError, SessionExpiredError, type ZooKeeperError } from './errors.js';
import {
  type AddWatchContext,
  type AddWatchModeName,
  addWatchReply,
  encodeAddWatch,
} from './ops/add-watch.js';
import { checkWatchesReply, encodeWatchRemoval, removeWatchesReply } from './ops/watch-removal.js';
import type { CallOptions, SessionState, WatchEvent, Watcher, WatchType } from './types.js';
import { kindsOfType, removalEventType, type WatchKind, type WatchTables } from './watches.js';

/** Adds a persistent or persistent-recursive watch (3.6+); the watcher is registered once the server agreed. */
export async function addWatch(
  core: ClientCore,
  path: string,
  mode: AddWatchModeName,
  watcher: Watcher,
  options?: CallOptions,
): Promise<void> {
  const serverPath = core.serverPath(path, 'addWatch');
  if (mode !== 'persistent' && mode !== 'persistent-recursive') {
    throw new InvalidArgumentError('mode', `must be 'persistent' or 'persistent-recursive'`, {
      operation: 'addWatch',
      path,
    });
  }
  if (typeof watcher !== 'function') {
    throw new InvalidArgumentError('watcher', 'must be a function', { operation: 'addWatch', path });
  }
  const context: AddWatchContext = { watcher, mode };
  return core.gated('addWatch', () => {
    const xid = core.begin();
    return core.submit(addWatchReply, xid, encodeAddWatch(xid, serverPath, mode), path, context, options);
  });
}

/** Persistent watch events as an async iterable; leaving the loop removes the watch. */
export function watchPersistent(
  core: ClientCore,
  path: string,
  options: { recursive?: boolean; signal?: AbortSignal },
): AsyncIterable<WatchEvent> {
  const mode = options.recursive ? 'persistent-recursive' : 'persistent';
  const session = core.session;
  return {
    [Symbol.asyncIterator]: () => {
      const watcher: Watcher = (event) => queue.push(event);
      const stop = () => {
        session.off('sessionState', onState);
        removeWatches(core, path, 'any', { watcher }).catch(() => {});
      };
      const queue = new AsyncQueue<WatchEvent>(stop);
      // The watch dies with the session: the loop ends (with the reason when the session expired).
      const onState = (state: SessionState) => {
        if (state !== 'closed' && state !== 'expired') return;
        session.off('sessionState', onState);
        queue.end(
          state === 'expired' ? new SessionExpiredError({ path, operation: 'watchPersistent' }) : undefined,
        );
      };
      session.on('sessionState', onState);
      if (options.signal) {
        if (options.signal.aborted) void queue.return();
        else options.signal.addEventListener('abort', () => void queue.return(), { once: true });
      }
      if (!queue.isEnded) {
        addWatch(core, path, mode, watcher, { signal: options.signal }).catch((error: unknown) => {
          session.off('sessionState', onState);
          queue.end(error);
        });
      }
      return queue;
    },
  };
}

function watchTypeArg(type: unknown, operation: string, path: string): asserts type is WatchType {
  if (type !== 'children' && type !== 'data' && type !== 'any') {
    throw new InvalidArgumentError('type', `must be 'children', 'data' or 'any'`, { operation, path });
  }
}

/**
 * Removes watches of a type at a path: one watcher or all. The server watch is removed (removeWatches) once
 * no local watcher needs it, else only checked (checkWatches). Each removed watcher gets a *WatchRemoved
 * event. With `local`, watchers are removed locally even when the server cannot be asked.
 */
export async function removeWatches(
  core: ClientCore,
  path: string,
  type: WatchType,
  options: CallOptions & { watcher?: Watcher; local?: boolean },
): Promise<void> {
  const serverPath = core.serverPath(path, 'removeWatches');
  watchTypeArg(type, 'removeWatches', path);
  const watches = core.session.watches;
  if (!watches.has(path, type, options.watcher))
    throw new NoWatcherError({ path, operation: 'removeWatches' });
  if (options.local && !core.session.isReady) {
    removeLocally(core, path, type, options.watcher);
    return;
  }
  const keep = serverWatchStillNeeded(watches, path, type, options.watcher);
  try {
    await core.gated('removeWatches', () => {
      const xid = core.begin();
      const frame = encodeWatchRemoval(xid, serverPath, type, !keep);
      return core.submit(keep ? checkWatchesReply : removeWatchesReply, xid, frame, path, undefined, options);
    });
  } catch (error) {
    const code = (error as ZooKeeperError).code;
    if (!(options.local && (code === 'CONNECTIONLOSS' || code === 'NOWATCHER'))) throw error;
  }
  removeLocally(core, path, type, options.watcher);
}

/**
 * Whether, after removing `watcher` (or all) of `type` at `path`, a remaining local watcher still relies on
 * the server watch that removeWatches of `type` would delete. The server has a data table (one-shot data and
 * exist watches, persistent and recursive ones) and a child table (one-shot child and persistent watches).
 */
function serverWatchStillNeeded(
  watches: WatchTables,
  path: string,
  type: WatchType,
  watcher: Watcher | undefined,
): boolean {
  const removed = new Set(kindsOfType(type));
  const remains = (kind: WatchKind) =>
    watches
      .watchersAt(kind, path)
      .some((w) => !removed.has(kind) || (watcher !== undefined && w !== watcher));
  const dataNeeded = (['data', 'exist', 'persistent', 'persistentRecursive'] as const).some(remains);
  const childNeeded = (['child', 'persistent'] as const).some(remains);
  if (type === 'data') return dataNeeded;
  if (type === 'children') return childNeeded;
  return dataNeeded || childNeeded;
}

function removeLocally(core: ClientCore, path: string, type: WatchType, watcher: Watcher | undefined): void {
  const seen = new Set<Watcher>();
  for (const entry of core.session.watches.remove(path, type, watcher)) {
    if (seen.has(entry.watcher)) continue;
    seen.add(entry.watcher);
    core.session.dispatch([entry.watcher], { type: removalEventType(entry.kind), path });
  }
}

/** Checks that the server holds a watch of the type at the path for this connection (NoWatcher if not). */
export async function checkWatches(
  core: ClientCore,
  path: string,
  type: WatchType,
  options: CallOptions & { watcher?: Watcher },
): Promise<void> {
  const serverPath = core.serverPath(path, 'checkWatches');
  watchTypeArg(type, 'checkWatches', path);
  if (options.watcher !== undefined && !core.session.watches.has(path, type, options.watcher)) {
    throw new NoWatcherError({ path, operation: 'checkWatches' });
  }
  return core.gated('checkWatches', () => {
    const xid = core.begin();
    const frame = encodeWatchRemoval(xid, serverPath, type, false);
    return core.submit(checkWatchesReply, xid, frame, path, undefined, options);
  });
}
