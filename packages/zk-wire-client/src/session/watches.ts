/**
 * The session's side of watches: decoding a notification (xid -1) into a client event, re-registering every
 * watch on a new connection of the same session (SetWatches / SetWatches2 in 128 KiB batches, wire-protocol.md
 * §6.4), and the last event one-shot watchers get when the session expires.
 */
import { records, Xid } from '@zkwire/jute-codec';
import type { RequestPipeline } from '../pipeline/pipeline.js';
import {
  CONFIG_NODE,
  CONFIG_WATCH_KEY,
  isConfigNodeNotification,
  watchKeyToClient,
  watchKeyToServer,
} from '../protocol/config-watch.js';
import { batchWatches, encodeSetWatches, setWatchesReply } from '../protocol/set-watches.js';
import type { WatchTables } from '../protocol/watches.js';
import type { Connection } from '../transport/connection.js';
import { publishWatchEvent } from '../util/diagnostics.js';
import type { Chroot } from '../util/paths.js';
import type { WatchEvent, Watcher } from '../util/types.js';

const EVENT_TYPES: Record<number, WatchEvent['type'] | undefined> = {
  1: 'created',
  2: 'deleted',
  3: 'dataChanged',
  4: 'childrenChanged',
};

/**
 * The client event of a notification frame, or undefined for a type this client does not deliver. A null
 * path (length -1) names no node: the frame is malformed and dropped, never delivered as an event on `/`.
 */
export function notificationEvent(payload: Buffer, chroot: Chroot): WatchEvent | undefined {
  const { value } = records.WatcherEvent.decode(payload, 16, payload.length);
  const type = EVENT_TYPES[value.type];
  if (type === undefined || value.path === null || value.path === undefined) return undefined;
  // The reply header's zxid: the change that fired the event on 3.9+ servers, -1 from older ones.
  const zxid = payload.readBigInt64BE(4);
  const path = chroot.toClient(value.path);
  return zxid === NO_ZXID ? { type, path } : { type, path, zxid };
}

/** The reply header zxid of a notification from a server before 3.9. */
const NO_ZXID = -1n;

/**
 * The watchers a notification reaches, each group with the event it is told: the tables' `collect(event)`,
 * except for the config node under a chroot (protocol/config-watch.ts), whose watchers sit under the config
 * key and are told `/zookeeper/config`, while a chroot containing the node also tells its client-path
 * watchers.
 */
export function notifiedWatchers(
  watches: WatchTables,
  event: WatchEvent,
  payload: Buffer,
  chroot: Chroot,
): [Set<Watcher>, WatchEvent][] {
  if (chroot.prefix === '' || !isConfigNodeNotification(payload)) return [[watches.collect(event), event]];
  const configWatchers = new Set<Watcher>();
  if (event.type !== 'childrenChanged') {
    for (const { watcher } of watches.remove(CONFIG_WATCH_KEY, 'data')) configWatchers.add(watcher);
  }
  const deliveries: [Set<Watcher>, WatchEvent][] = [[configWatchers, { ...event, path: CONFIG_NODE }]];
  // Outside the chroot, the event's path is the server path passed through: a client path of another node.
  if (event.path !== CONFIG_NODE) deliveries.push([watches.collect(event), event]);
  return deliveries;
}

/**
 * Hands a notification frame to the watchers it reaches. Each group is dispatched as a microtask
 * (`dispatchInOrder`): after the replies read before the event have resolved their promises, before those
 * read after it, and never inside the socket's data handler.
 */
export function deliverNotification(
  payload: Buffer,
  watches: WatchTables,
  chroot: Chroot,
  session: { dispatchInOrder(watchers: Iterable<Watcher>, event: WatchEvent): void },
): void {
  const event = notificationEvent(payload, chroot);
  if (event === undefined) return;
  for (const [watchers, told] of notifiedWatchers(watches, event, payload, chroot)) {
    publishWatchEvent(told, watchers.size);
    if (watchers.size > 0) session.dispatchInOrder(watchers, told);
  }
}

/** Sends the watch tables on `connection`, with the last zxid seen so the server fires what was missed. */
export function restoreWatches(
  connection: Connection,
  watches: WatchTables,
  chroot: Chroot,
  pipeline: RequestPipeline,
): void {
  const snapshot = watches.snapshot();
  const toServer = (list: string[]) => list.map((key) => watchKeyToServer(chroot, key));
  const batches = batchWatches({
    data: toServer(snapshot.data),
    exist: toServer(snapshot.exist),
    child: toServer(snapshot.child),
    persistent: toServer(snapshot.persistent),
    persistentRecursive: toServer(snapshot.persistentRecursive),
  });
  // Java's xid for SetWatches (ClientCnxn.SET_WATCHES_XID): the server counts requests of a positive xid
  // against its throttle (ServerCnxn.incrOutstandingAndCheckThrottle) and these not; replies still match
  // in order, so every batch takes the same xid and the session's own xids are left as they were.
  const xid = Xid.SET_WATCHES;
  const lastZxid = pipeline.lastZxid;
  for (const batch of batches) {
    const frame = encodeSetWatches(xid, lastZxid, batch);
    // A failed restore shows as missing events; the connection itself carries on (Java does the same).
    pipeline.writeNow(connection, setWatchesReply, xid, frame).catch(() => {});
  }
}

/**
 * Java tells every watcher with the Expired state: each armed one-shot watcher gets a last event,
 * `sessionExpired` at its path, since no change will ever fire it. Persistent watchers learn it from the
 * `lost` state (watchPersistent's loop ends with SessionExpiredError).
 */
export function expiryEvents(watches: WatchTables): [Set<Watcher>, WatchEvent][] {
  return [...watches.oneShotByPath()].map(([key, watchers]) => [
    watchers,
    { type: 'sessionExpired', path: watchKeyToClient(key) },
  ]);
}
