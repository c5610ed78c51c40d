/**
 * What a queue needs of a ZooKeeper client: the members of `@zkwire/zk-wire-client`'s client it calls, so the
 * client, a chroot view of it (`client.chroot(root)`) and a wrapper of either (counting calls, injecting
 * faults) all fit.
 */
import type { ClientApi } from '@zkwire/zk-wire-client';

export { onClientState } from '@zkwire/common';

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
