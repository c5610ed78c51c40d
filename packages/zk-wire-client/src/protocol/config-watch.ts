/**
 * Where a `getConfig` watch lives in the watch tables, which are keyed by client paths.
 *
 * The config node, `/zookeeper/config`, is outside every chroot: the server path of no client path. Without
 * a chroot its client path is itself, and its watch is an ordinary data watch there. Under a chroot
 * (`/app`), the client path `/zookeeper/config` names `/app/zookeeper/config`, a node like any other; so
 * the config watch is kept under a key that is not a path ({@link CONFIG_WATCH_KEY}, which no client path can
 * equal), sent to the server as `/zookeeper/config` (SetWatches after a reconnect included), and its event is
 * told as `/zookeeper/config`, as Java (ZOOKEEPER-4601) and Curator do. A chroot that contains the config
 * node (`/zookeeper`) sees it under its own client path (`/config`) too: watchers there are told as well.
 */
import type { ChrootMapping } from '../util/chroot-types.js';

/** The node holding the ensemble's dynamic configuration. */
export const CONFIG_NODE = '/zookeeper/config';

/** The watch-table key of a config watch under a chroot (not a path: it does not start with '/'). */
export const CONFIG_WATCH_KEY = 'zookeeper-config:';

/** The watch-table key of a config watch for a client with this chroot. */
export function configWatchKey(chroot: ChrootMapping): string {
  return chroot.prefix === '' ? CONFIG_NODE : CONFIG_WATCH_KEY;
}

/** The server path of a watch-table key (a client path, or the config key). */
export function watchKeyToServer(chroot: ChrootMapping, key: string): string {
  return key === CONFIG_WATCH_KEY ? CONFIG_NODE : chroot.toServer(key);
}

/** The path an event at a watch-table key is told with. */
export function watchKeyToClient(key: string): string {
  return key === CONFIG_WATCH_KEY ? CONFIG_NODE : key;
}

/** Byte offset of the path in a notification: reply header (16), WatcherEvent type and state (8), length. */
const PATH_LENGTH_OFFSET = 24;

/** True when a notification frame (xid -1) is about the server path `/zookeeper/config`. */
export function isConfigNodeNotification(payload: Buffer): boolean {
  const start = PATH_LENGTH_OFFSET + 4;
  if (payload.length < start + CONFIG_NODE.length) return false;
  if (payload.readInt32BE(PATH_LENGTH_OFFSET) !== CONFIG_NODE.length) return false;
  return payload.toString('latin1', start, start + CONFIG_NODE.length) === CONFIG_NODE;
}
