import { AuthFailedError, type ErrorContext, ZooKeeperError } from '../util/errors.js';

/** Why a SASL authentication failed, as a stable string callers can branch on. */
export const SaslFailure = {
  /** The server refused the credentials (AUTHFAILED, -115): wrong password or unknown user. */
  REJECTED: 'REJECTED',
  /** The server's proof (`rspauth`) did not match: it does not know the password, or it is not the real server. */
  SERVER_NOT_VERIFIED: 'SERVER_NOT_VERIFIED',
  /** The server sent a token this mechanism cannot use (malformed, or missing a required directive). */
  BAD_CHALLENGE: 'BAD_CHALLENGE',
  /** The server offers nothing this client can do (no `qop=auth`, an unknown algorithm or mechanism). */
  UNSUPPORTED: 'UNSUPPORTED',
  /** The server answered with no token: it has no SASL configured (no JAAS `Server` section). */
  NOT_CONFIGURED: 'NOT_CONFIGURED',
  /** The connection ended before the exchange finished. */
  INTERRUPTED: 'INTERRUPTED',
} as const;

/** One of {@link SaslFailure}. */
export type SaslFailureReason = (typeof SaslFailure)[keyof typeof SaslFailure];

/**
 * SASL authentication failed. An {@link AuthFailedError} (`code` 'AUTHFAILED', errno -115, like the server's
 * answer) whose `reason` says why. By design the message names the mechanism and the reason only: never the user
 * name, the password or a token.
 */
export class SaslAuthenticationError extends AuthFailedError {
  /** The mechanism that failed (`DIGEST-MD5`). */
  readonly mechanism: string;
  /** Why it failed. */
  readonly reason: SaslFailureReason;
  constructor(mechanism: string, reason: SaslFailureReason, detail: string, context: ErrorContext = {}) {
    super(context);
    // AuthFailedError's message is fixed; this one says which mechanism failed and why.
    this.message = `SASL ${mechanism} authentication failed (${reason}): ${detail}`;
    Error.captureStackTrace?.(this, new.target);
    this.mechanism = mechanism;
    this.reason = reason;
  }
}

/** True when `error` is a {@link SaslAuthenticationError} (also from another copy of this package). */
export function isSaslAuthenticationError(error: unknown): error is SaslAuthenticationError {
  return (
    ZooKeeperError.isInstance(error) &&
    error.code === 'AUTHFAILED' &&
    typeof (error as { reason?: unknown }).reason === 'string' &&
    typeof (error as { mechanism?: unknown }).mechanism === 'string'
  );
}
