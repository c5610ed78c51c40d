/**
 * The liveness rules of a connected connection (wire-protocol.md §7.1-7.2): when silence or an unfinished
 * frame ends it, when idle sending calls for a ping, and when the timer next needs to wake. Pure functions of
 * the connection's clock; connection.ts owns the timer and acts on the verdict.
 */
import { Buffer } from 'node:buffer';
import { ConnectionLossError, ProtocolError } from '../util/errors.js';

/** The ping frame: length 8, xid -2, opcode 11. */
export const PING_FRAME = Buffer.from([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11]);
/** Java's MAX_SEND_PING_INTERVAL: ping at least this often. */
const MAX_SEND_PING_INTERVAL_MS = 10_000;
/** The shortest sleep of the liveness timer, so that a check that finds nothing due never spins. */
export const MIN_LIVENESS_DELAY_MS = 20;

/** What the rules read of a connection (ms timestamps; `partialSince` 0 when no frame is half read). */
export interface LivenessClock {
  readonly lastReceived: number;
  readonly lastSent: number;
  readonly waitingDrain: boolean;
  readonly partialSince: number;
}

/** The ms timestamp at which {@link livenessVerdict} may next find something to do. */
export function nextLivenessCheck(clock: LivenessClock, readTimeoutMs: number): number {
  // A ping waiting for 'drain' is tried again at the read timeout's tenth (at most 1 s), not at once.
  const pingDue = clock.waitingDrain
    ? Date.now() + Math.min(1000, Math.floor(readTimeoutMs / 10))
    : clock.lastSent + pingAfterIdleMs(readTimeoutMs);
  let next = Math.min(clock.lastReceived + readTimeoutMs, pingDue);
  if (clock.partialSince !== 0) next = Math.min(next, clock.partialSince + readTimeoutMs);
  return next + 1;
}

/** At `now`: the error that ends the connection, 'ping' when one is due, or undefined. */
export function livenessVerdict(
  clock: LivenessClock,
  readTimeoutMs: number,
  now: number,
): ConnectionLossError | 'ping' | undefined {
  if (now - clock.lastReceived > readTimeoutMs) {
    return new ConnectionLossError({ cause: new Error(`nothing received for ${readTimeoutMs} ms`) });
  }
  // The per-frame read deadline: a reply that has not completed within the read timeout never will.
  if (clock.partialSince !== 0 && now - clock.partialSince > readTimeoutMs) {
    const cause = new ProtocolError(`a reply frame did not complete within ${readTimeoutMs} ms`);
    return new ConnectionLossError({ cause });
  }
  if (now - clock.lastSent >= pingAfterIdleMs(readTimeoutMs) && !clock.waitingDrain) return 'ping';
  return undefined;
}

/**
 * How long sending may be idle before a ping: Java's rule (ClientCnxn.SendThread pings once
 * `readTimeout/2 - idleSend - (idleSend > 1000 ? 1000 : 0) <= 0`, or once idleSend exceeds
 * {@link MAX_SEND_PING_INTERVAL_MS}), solved for idleSend.
 */
function pingAfterIdleMs(readTimeoutMs: number): number {
  const half = readTimeoutMs / 2;
  const due = half <= 1000 ? half : Math.max(half - 1000, 1001);
  return Math.min(due, MAX_SEND_PING_INTERVAL_MS + 1);
}
