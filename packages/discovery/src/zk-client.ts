/**
 * What service discovery needs of a ZooKeeper client: the members of `@zkwire/zk-wire-client`'s client it
 * calls, so the client, a chroot view of it (`client.chroot(root)`) and a wrapper of either all fit.
 */
import type { ClientApi, ConnectionState, Stat, Watcher } from '@zkwire/zk-wire-client';

/** What service discovery needs from a ZooKeeper client. */
export type DiscoveryClient = Pick<
  ClientApi,
  | 'sessionId'
  | 'logger'
  | 'create'
  | 'delete'
  | 'exists'
  | 'getData'
  | 'setData'
  | 'getChildren'
  | 'removeWatches'
  | 'on'
  | 'off'
>;

/** A watch callback, armed by the same request as the read it rides on (the client's Watcher). */
export type DiscoveryWatcher = Watcher;

/** A node's Stat (the client's). */
export type DiscoveryStat = Stat;

/** Connection states reported by the client (`on('state')`). */
export type DiscoveryConnectionState = ConnectionState;

export {
  isClientClosed,
  isNodeExists,
  isNoNode,
  isNoWatcher,
  isRetryable,
  isSessionExpired,
} from '@zkwire/zk-wire-client';
