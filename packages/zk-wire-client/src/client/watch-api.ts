/**
 * The watch calls beyond one-shot reads: persistent watches (callback and async iterable), and removing or
 * checking watches by type and by watcher (wire-protocol.md §4.6, §6.5).
 */
import { addWatchReply, encodeAddWatch } from '../protocol/add-watch.js';
import type { AddWatchContext, AddWatchModeName } from '../protocol/reply-decoder.js';
import {
  checkWatchesReply,
  encodeWatchRemoval,
  removeLocally,
  removeWatchesReply,
  type WatchRemovalContext,
} from '../protocol/watch-removal.js';
import { kindsOfType, type WatchKind, type WatchTables } from '../protocol/watches.js';
import { AsyncQueue } from '../util/async-queue.js';
import {
  InvalidArgumentError,
  isConnectionLoss,
  NoWatcherError,
  SessionExpiredError,
} from '../util/errors.js';
import type { CallOptions, SessionState, WatchEvent, Watcher, WatchType } from '../util/types.js';
import { type ClientCore, optionsArg } from './core.js';

/** Adds a persistent or persistent-recursive watch (3.6+); the watcher is registered once the server agreed. */
export function addWatch(
  core: ClientCore,
  path: string,
  mode: AddWatchModeName,
  watcher: Watcher,
  options?: CallOptions,
): Promise<void> {
  try {
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
    const xid = core.begin();
    const frame = encodeAddWatch(xid, serverPath, mode);
    return core.submitGated('addWatch', addWatchReply, xid, frame, path, context, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Persistent watch events as an async iterable; leaving the loop removes the watch. */
export function watchPersistent(
  core: ClientCore,
  path: string,
  options: { recursive?: boolean; signal?: AbortSignal },
): AsyncIterable<WatchEvent> {
  const session = core.session;
  return {
    [Symbol.asyncIterator]: () => {
      try {
        optionsArg(options, 'watchPersistent', path);
      } catch (error) {
        const refused = new AsyncQueue<WatchEvent>(() => {});
        refused.end(error);
        return refused;
      }
      const mode = options.recursive ? 'persistent-recursive' : 'persistent';
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

const WATCH_TYPES: readonly unknown[] = ['children', 'data', 'any', 'persistent', 'persistent-recursive'];

function watchTypeArg(type: unknown, operation: string, path: string): asserts type is WatchType {
  if (!WATCH_TYPES.includes(type)) {
    throw new InvalidArgumentError(
      'type',
      `must be 'children', 'data', 'any', 'persistent' or 'persistent-recursive'`,
      { operation, path },
    );
  }
}

/** The version gate of a removal or check: the persistent types alone need a 3.9 server. */
function removalFeature(type: WatchType, call: 'removeWatches' | 'checkWatches') {
  return type === 'persistent' || type === 'persistent-recursive' ? 'persistentWatchType' : call;
}

/**
 * Removes watches of a type at a path: one watcher or all. The server watch is removed (removeWatches) once
 * no local watcher needs it, else only checked (checkWatches). The local tables are checked and changed, and
 * each removed watcher gets its *WatchRemoved event, when the reply settles (protocol/watch-removal.ts). With
 * `local`, watchers are removed locally even when the server cannot be asked: while disconnected that
 * happens at once, outside the call order.
 */
export function removeWatches(
  core: ClientCore,
  path: string,
  type: WatchType,
  options: CallOptions & { watcher?: Watcher; local?: boolean },
): Promise<void> {
  try {
    const serverPath = core.serverPath(path, 'removeWatches');
    watchTypeArg(type, 'removeWatches', path);
    optionsArg(options, 'removeWatches', path);
    const { watcher, local = false } = options;
    watcherOptionArg(watcher, 'removeWatches', path);
    const session = core.session;
    const watches = session.watches;
    if (local && !session.isReady) {
      if (!watches.has(path, type, watcher)) throw new NoWatcherError({ path, operation: 'removeWatches' });
      removeLocally(session, path, type, watcher);
      return Promise.resolve();
    }
    // The server watch stays (checkWatches) while another local watcher needs it, including one that a read
    // or addWatch still in flight will register: the tables do not show those yet (found by the Java
    // conformance test: `exists(p, w2)` then `removeWatches(p, data, w1)` in one tick).
    const keep =
      serverWatchStillNeeded(watches, path, type, watcher) || session.pipeline.armsWatchInFlight(path);
    const context: WatchRemovalContext = { type, watcher, removes: true, local };
    const xid = core.begin();
    const frame = encodeWatchRemoval(xid, serverPath, type, !keep);
    const decoder = keep ? checkWatchesReply : removeWatchesReply;
    const feature = removalFeature(type, 'removeWatches');
    return core.submitGated(feature, decoder, xid, frame, path, context, options, (request) => {
      if (!local) return;
      // The server could not be asked: remove locally all the same (Java's `local`).
      request.recover = (error) => {
        if (!isConnectionLoss(error) || !session.watches.has(path, type, watcher)) return undefined;
        removeLocally(session, path, type, watcher);
        return { value: undefined };
      };
    });
  } catch (error) {
    return Promise.reject(error);
  }
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
  // 3.9 servers remove a persistent or recursive watch by its own type, apart from the one-shot ones.
  if (type === 'persistent') return remains('persistent');
  if (type === 'persistent-recursive') return remains('persistentRecursive');
  const dataNeeded = (['data', 'exist', 'persistent', 'persistentRecursive'] as const).some(remains);
  const childNeeded = (['child', 'persistent'] as const).some(remains);
  if (type === 'data') return dataNeeded;
  if (type === 'children') return childNeeded;
  return dataNeeded || childNeeded;
}

/**
 * Checks that the server holds a watch of the type at the path for this connection, and with `watcher` that
 * this watcher is registered locally (NoWatcher if not), as of this call's place in the order.
 */
export function checkWatches(
  core: ClientCore,
  path: string,
  type: WatchType,
  options: CallOptions & { watcher?: Watcher },
): Promise<void> {
  try {
    const serverPath = core.serverPath(path, 'checkWatches');
    watchTypeArg(type, 'checkWatches', path);
    optionsArg(options, 'checkWatches', path);
    watcherOptionArg(options.watcher, 'checkWatches', path);
    const context: WatchRemovalContext = { type, watcher: options.watcher, removes: false, local: false };
    const xid = core.begin();
    const frame = encodeWatchRemoval(xid, serverPath, type, false);
    const feature = removalFeature(type, 'checkWatches');
    return core.submitGated(feature, checkWatchesReply, xid, frame, path, context, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function watcherOptionArg(watcher: unknown, operation: string, path: string): void {
  if (watcher !== undefined && typeof watcher !== 'function') {
    throw new InvalidArgumentError('watcher', 'must be a function', { operation, path });
  }
}
