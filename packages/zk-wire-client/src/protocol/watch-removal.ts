/**
 * checkWatches (17) and removeWatches (18), server 3.5.0+.
 *
 *   request  CheckWatchesRequest / RemoveWatchesRequest { ustring path; int type; }
 *            type: Children 1, Data 2, Any 3 (Persistent 4, PersistentRecursive 5 from 3.9)
 *   reply    header only; -121 NOWATCHER when this connection has no such server watch
 *
 * checkWatches only checks (the server watch stays); removeWatches removes the server watch.
 *
 * The local side is settled with the reply, as the Java client's finishPacket applies its
 * WatchDeregistration: the decoders only declare it (`deregisters`), and the pipeline's settle step calls
 * {@link deregisterWatches}, so the watch tables are checked (NoWatcher when no such local watcher) and the
 * watchers removed as of this request's place in the stream of replies and events, not as of the call, and
 * each removed watcher is told (*WatchRemoved) before the call's promise settles.
 */
import { encodeRequestFrame, OpCode, records, WatcherType } from '@zkwire/jute-codec';
import { errorFromCode, NoWatcherError, type ZooKeeperError } from '../util/errors.js';
import type { WatchEvent, Watcher, WatchType } from '../util/types.js';
import type { ReplyContext, ReplyDecoder, WatchDeregistration } from './reply-decoder.js';
import { removalEventType, type WatchTables } from './watches.js';

/**
 * What the settle step's watch work uses besides the decoders' context: the watch tables (which only the
 * settle step changes) and the ordered dispatch of watch events (removeWatches tells removed watchers while it
 * settles).
 */
export interface SettleContext extends ReplyContext {
  readonly watches: WatchTables;
  /** Queues the watchers' calls for `event` behind what has already settled (a microtask, in order). */
  dispatchInOrder(watchers: Iterable<Watcher>, event: WatchEvent): void;
}

const wireType: Record<WatchType, number> = {
  children: WatcherType.Children,
  data: WatcherType.Data,
  any: WatcherType.Any,
  persistent: WatcherType.Persistent,
  'persistent-recursive': WatcherType.PersistentRecursive,
};

/** The server's errno for "no such watch on this connection". */
const NOWATCHER = -121;

/** Builds a checkWatches (remove = false) or removeWatches frame. */
export function encodeWatchRemoval(
  xid: number,
  serverPath: string,
  type: WatchType,
  remove: boolean,
): Buffer {
  return remove
    ? encodeRequestFrame(xid, OpCode.removeWatches, records.RemoveWatchesRequest, {
        path: serverPath,
        type: wireType[type],
      })
    : encodeRequestFrame(xid, OpCode.checkWatches, records.CheckWatchesRequest, {
        path: serverPath,
        type: wireType[type],
      });
}

/** What a removeWatches() or checkWatches() call carries for its decoder. */
export interface WatchRemovalContext {
  type: WatchType;
  /** One watcher, or all of the type. */
  watcher: Watcher | undefined;
  /** removeWatches() (true) or checkWatches() (false). */
  removes: boolean;
  /** Remove locally even when the server cannot be asked or has no such watch. */
  local: boolean;
}

/**
 * Removes the watchers locally and tells each one, once per kind of removal: a watcher armed by getData and
 * by getChildren gets childWatchRemoved and dataWatchRemoved, as in Java.
 */
export function removeLocally(
  context: SettleContext,
  path: string,
  type: WatchType,
  watcher: Watcher | undefined,
): void {
  const byEvent = new Map<WatchEvent['type'], Set<Watcher>>();
  for (const entry of context.watches.remove(path, type, watcher)) {
    const eventType = removalEventType(entry.kind);
    let set = byEvent.get(eventType);
    if (set === undefined) byEvent.set(eventType, (set = new Set()));
    set.add(entry.watcher);
  }
  for (const eventType of REMOVAL_EVENT_ORDER) {
    const watchers = byEvent.get(eventType);
    if (watchers !== undefined) context.dispatchInOrder(watchers, { type: eventType, path });
  }
}

const REMOVAL_EVENT_ORDER: readonly WatchEvent['type'][] = [
  'childWatchRemoved',
  'dataWatchRemoved',
  'persistentWatchRemoved',
];

/*
 * A removal that keeps the server watch goes out as checkWatches. A NOWATCHER answer to it is not a failure
 * when the local watchers to remove are there (checked first): from 3.9 the server counts persistent watches
 * apart from the data and child ones (ZOOKEEPER-4472), so a one-shot watcher that rides on a persistent watch,
 * never armed on the server, is answered NOWATCHER; 3.6 to 3.8 answer OK.
 */
function keptServerWatchAnswer(operation: WatchDeregistration, err: number): boolean {
  return operation === 'checkWatches' && err === NOWATCHER;
}

/**
 * Settles a removal's reply (err 0 or NOWATCHER) on the local side, as its decoder declared: checks the local
 * watchers, then the server's answer, then removes the watchers and tells them. Returns the error the call
 * fails with, or undefined when it succeeds.
 */
export function deregisterWatches(
  context: SettleContext,
  operation: WatchDeregistration,
  path: string,
  requestContext: unknown,
  err: number,
): ZooKeeperError | undefined {
  const c = requestContext as WatchRemovalContext;
  const call = c.removes ? 'removeWatches' : 'checkWatches';
  const checksLocal = c.removes || c.watcher !== undefined;
  if (checksLocal && !context.watches.has(path, c.type, c.watcher)) {
    return new NoWatcherError({ path, operation: call });
  }
  if (err !== 0 && !(c.removes && (c.local || keptServerWatchAnswer(operation, err)))) {
    return errorFromCode(err, { path, operation: call });
  }
  if (c.removes) removeLocally(context, path, c.type, c.watcher);
  return undefined;
}

/** Nothing to decode (the reply is its header); NOWATCHER goes on to the settle step, which decides. */
function removalDecoder(operation: WatchDeregistration): ReplyDecoder<void> {
  return {
    operation,
    deregisters: operation,
    resultCodes: [NOWATCHER],
    decode: () => undefined,
  };
}

/** Decoder of a checkWatches request (a removal that keeps the server watch, or a check). */
export const checkWatchesReply = removalDecoder('checkWatches');
/** Decoder of a removeWatches request. */
export const removeWatchesReply = removalDecoder('removeWatches');
