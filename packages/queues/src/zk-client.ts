/**
 * What a queue needs of a ZooKeeper client: the members of `@zkwire/zk-wire-client`'s client it calls, so the
 * client, a chroot view of it (`client.chroot(root)`) and a wrapper of either (counting calls, injecting
 * faults) all fit.
 */
import type { ClientApi, ConnectionState } from '@zkwire/zk-wire-client';

/** What a queue needs from a ZooKeeper client. */
export type QueueClient = Pick<
  ClientApi,
  | 'sessionId'
  | 'logger'
  | 'state'
  | 'connected'
  | 'create'
  | 'delete'
  | 'exists'
  | 'getData'
  | 'getChildren'
  | 'multi'
  | 'on'
  | 'off'
>;

/** Subscribes to connection states; returns the unsubscribe function. */
export function onClientState(client: QueueClient, listener: (state: ConnectionState) => void): () => void {
  client.on('state', listener);
  return () => {
    client.off('state', listener);
  };
}
