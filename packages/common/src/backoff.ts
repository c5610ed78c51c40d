/**
 * The one backoff curve of the sibling packages: the client's (and Curator's) bounded exponential backoff,
 * `baseMs × max(1, random in [0, 2^(attempt+1)))`, at most `maxMs`. Its randomness spreads the retries of
 * many processes that lost the same server at the same moment, which a fixed doubling would keep in step.
 */
import { BoundedExponentialBackoffRetry } from '@zkwire/zk-wire-client';

/** The bounds of a backoff. */
export interface Backoff {
  /** The unit of the curve: the first retry sleeps 1 to 3 times this. */
  baseMs: number;
  /** No sleep is longer. */
  maxMs: number;
}

/** Curator's retry count limit (2^30 would overflow its int). */
const MAX_ATTEMPT = 28;

/** The sleep before retry number `attempt` (0 for the first retry); past 28 the curve stays at its top. */
export function backoffMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const policy = new BoundedExponentialBackoffRetry(backoff.baseMs, backoff.maxMs, MAX_ATTEMPT + 1, random);
  const sleepMs = policy.allowRetry(Math.min(Math.max(0, attempt), MAX_ATTEMPT), 0);
  return sleepMs === false ? backoff.maxMs : sleepMs;
}
