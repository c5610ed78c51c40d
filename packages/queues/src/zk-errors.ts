/**
 * The client's error guards, and the two groupings the queues decide on. The client is a peer dependency, and
 * its guards know its errors by a `Symbol.for` marker, so they hold across an ESM and a CJS copy of it.
 */
import { isBadVersion, isNodeExists, isNoNode, isRetryable, ZooKeeperError } from '@zkwire/zk-wire-client';

export { isNodeExists, isNoNode, isSessionExpired } from '@zkwire/zk-wire-client';

/** "Someone else got there first": Curator skips the item on these (curator/queues.md §8.3). */
export function isTakenByAnother(error: unknown): boolean {
  return isNoNode(error) || isNodeExists(error) || isBadVersion(error);
}

/**
 * The outcome is unknown but the session may live: the connection dropped or the call timed out before its
 * reply, or the server throttled it (Curator's retry set without SESSIONEXPIRED, which ends our work with
 * this session).
 */
export function isTransient(error: unknown): boolean {
  return isRetryable(error) || (ZooKeeperError.isInstance(error) && error.code === 'THROTTLEDOP');
}
