/** Following a client's connection states with one call that hands back the unsubscribe. */
import type { ClientApi, ConnectionState } from '@zkwire/zk-wire-client';

/** Subscribes `listener` to the client's (or a chroot view's) `state` events; returns the function that unsubscribes. */
export function onClientState(
  client: Pick<ClientApi, 'on' | 'off'>,
  listener: (state: ConnectionState) => void,
): () => void {
  client.on('state', listener);
  return () => {
    client.off('state', listener);
  };
}
