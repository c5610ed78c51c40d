/**
 * The connect step of each connection, as plain functions the session calls: the ConnectRequest
 * (wire-protocol.md §2.1), the per-host connect timeout and the reconnect delay (Java's ClientCnxn rules).
 */
import { encodeConnectRequest } from '@zkwire/jute-codec';

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
