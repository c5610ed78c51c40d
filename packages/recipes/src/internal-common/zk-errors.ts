/**
 * The client's error guards, as the recipes use them. The client is a peer dependency, and its guards know
 * its errors by a `Symbol.for` marker, so they hold across an ESM and a CJS copy of it. `isRetryable` is
 * Curator's retry set (curator/connection-states.md §13.5): the outcome is unknown, the session may live.
 */
export {
  isClientClosed,
  isConnectionLoss,
  isNodeExists,
  isNoNode,
  isRetryable,
  isSessionExpired,
} from '@zkwire/zk-wire-client';
