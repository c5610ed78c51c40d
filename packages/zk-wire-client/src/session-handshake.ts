/**
 * The connect step of each connection, as plain functions the session calls: checking the session options,
 * the ConnectRequest (wire-protocol.md §2.1), the per-host connect timeout and the reconnect delay (Java's
 * ClientCnxn rules).
 */
import { encodeConnectRequest } from '@zkwire/jute-codec';
import { InvalidArgumentError } from './errors.js';
import type { ClientOptions } from './types.js';

/** The checked session options: the timeout to ask for and the session to reattach to, if any. */
export interface SessionStart {
  requestedTimeoutMs: number;
  session: { id: bigint; password: Buffer } | undefined;
}

/** Checks `sessionTimeoutMs` and `session` (refused with InvalidArgumentError before anything is sent). */
export function sessionStart(options: ClientOptions): SessionStart {
  const timeout = options.sessionTimeoutMs ?? 30_000;
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new InvalidArgumentError('sessionTimeoutMs', `must be a positive integer, got ${String(timeout)}`);
  }
  if (options.session && options.session.password.length !== 16) {
    throw new InvalidArgumentError('session.password', 'must be 16 bytes');
  }
  const session = options.session
    ? { id: options.session.id, password: Buffer.from(options.session.password) }
    : undefined;
  return { requestedTimeoutMs: timeout, session };
}

/** Curator's connection timeout: the default bound of a wait for the first connection. */
export const DEFAULT_CONNECT_WAIT_MS = 15_000;

/**
 * A timeout option in ms: an integer ≥ 0 (> 0 unless `zeroAllowed`), or undefined for the default. Refused
 * with InvalidArgumentError before anything is sent.
 */
export function timeoutOption(
  name: string,
  value: number | undefined,
  zeroAllowed: boolean,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1)) {
    const range = zeroAllowed ? 'an integer ≥ 0' : 'a positive integer';
    throw new InvalidArgumentError(name, `must be ${range}, got ${String(value)}`);
  }
  return value;
}

/** The ConnectRequest frame: a new session (id 0) until a read-write server handed one out (§2.1). */
export function connectRequestFrame(request: {
  lastZxidSeen: bigint;
  timeoutMs: number;
  sessionId: bigint;
  password: Buffer;
  reattach: boolean;
  canBeReadOnly: boolean;
}): Buffer {
  return encodeConnectRequest({
    protocolVersion: 0,
    lastZxidSeen: request.lastZxidSeen,
    timeOut: request.timeoutMs,
    sessionId: request.reattach ? request.sessionId : 0n,
    passwd: request.reattach ? request.password : Buffer.alloc(16),
    readOnly: request.canBeReadOnly,
  });
}

/** Java's connectTimeout (T / hosts, here at least 1 s): it bounds the TCP connect, TLS and the answer. */
export function connectTimeoutMs(sessionTimeoutMs: number, hostCount: number): number {
  return Math.max(1000, Math.floor(sessionTimeoutMs / hostCount));
}

/** Java: a random 0-999 ms before each attempt but the first; 1 s more after a full round of hosts. */
export function reconnectDelayMs(fullRound: boolean): number {
  return Math.floor(Math.random() * 1000) + (fullRound ? 1000 : 0);
}
