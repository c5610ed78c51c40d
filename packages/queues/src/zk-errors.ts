/**
 * Recognising the client's errors by their stable `code` (docs/contracts.md), so no `instanceof` is needed
 * across package copies.
 */

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** The node does not exist. */
export const isNoNode = (error: unknown): boolean => codeOf(error) === 'NONODE';
/** The node already exists. */
export const isNodeExists = (error: unknown): boolean => codeOf(error) === 'NODEEXISTS';
/** The node's version moved. */
export const isBadVersion = (error: unknown): boolean => codeOf(error) === 'BADVERSION';
/** The session is gone, and its ephemeral nodes with it. */
export const isSessionExpired = (error: unknown): boolean => codeOf(error) === 'SESSIONEXPIRED';

/** "Someone else got there first": Curator skips the item on these (curator-compat.md §8.3). */
export function isTakenByAnother(error: unknown): boolean {
  return isNoNode(error) || isNodeExists(error) || isBadVersion(error);
}

/**
 * The outcome is unknown but the session may live: the connection dropped or the call timed out before its
 * reply (Curator's retry set without SESSIONEXPIRED, which ends our work with this session).
 */
export function isTransient(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === 'CONNECTIONLOSS' ||
    code === 'OPERATIONTIMEOUT' ||
    code === 'SESSIONMOVED' ||
    code === 'THROTTLED'
  );
}
