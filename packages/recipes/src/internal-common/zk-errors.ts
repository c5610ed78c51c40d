/**
 * Recognising the client's errors by their stable `code` (docs/contracts.md), so the recipes need no
 * `instanceof` across package copies.
 */

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code.toUpperCase().replace(/[_-]/g, '') : undefined;
}

/** The node does not exist. */
export function isNoNode(error: unknown): boolean {
  return codeOf(error) === 'NONODE';
}

/** The node already exists. */
export function isNodeExists(error: unknown): boolean {
  return codeOf(error) === 'NODEEXISTS';
}

/** The session is gone: its ephemeral nodes are gone with it. */
export function isSessionExpired(error: unknown): boolean {
  return codeOf(error) === 'SESSIONEXPIRED';
}

/** The client was closed: nothing more can be done with it. */
export function isClientClosed(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'CLIENTCLOSED' || code === 'CLOSED' || code === 'CLOSING';
}

/**
 * The outcome of the request is unknown (Curator retries these, curator-compat.md §13.5): the connection was
 * lost or the request timed out before its reply.
 */
export function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'CONNECTIONLOSS' || code === 'OPERATIONTIMEOUT' || code === 'SESSIONMOVED';
}
