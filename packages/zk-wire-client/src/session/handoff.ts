/**
 * Session hand-off: what `client.detach()` returns and `connect({ session })` takes to resume the session in
 * another thread or process, its string form for environments and argument lists, and the checks of both.
 *
 * The hand-off is a plain object of strings and a number, so that `postMessage` (structured clone) carries
 * it as it is. Its password is the session's secret: `util.inspect`, `console.log`, `String()` and
 * `JSON.stringify` of a hand-off made here never show it; only {@link encodeSessionHandoff} writes it out.
 */
import { Buffer } from 'node:buffer';
import { inspect } from 'node:util';
import { InvalidArgumentError, ZooKeeperError } from '../util/errors.js';
import type { SessionHandoff } from '../util/types.js';

/** The session a ConnectRequest presents: checked, as the session works with it. */
export interface SessionCredentials {
  id: bigint;
  password: Buffer;
  /** The timeout of a hand-off (the default session timeout of a resume); undefined for `{ id, password }`. */
  timeoutMs: number | undefined;
}

/** `detach()` was asked of a client that holds no session (not connected yet, or expired). */
export class NoSessionError extends ZooKeeperError {
  constructor(message: string, context: { operation?: string } = {}) {
    super('NOSESSION', -112, message, context);
  }
}

/** The prefix of the string form; the number is the format's version. */
const ENCODED_PREFIX = 'zkwire-session-1';
const SESSION_ID = /^[0-9a-f]{16}$/;
const PASSWORD = /^[0-9a-f]{32}$/;
/** The longest session timeout a server can grant (an int32 of ms). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A hand-off of our own: a plain object whose printed and JSON forms leave out the password. */
class DetachedSession implements SessionHandoff {
  readonly sessionId: string;
  readonly password: string;
  readonly timeoutMs: number;

  constructor(sessionId: string, password: string, timeoutMs: number) {
    this.sessionId = sessionId;
    this.password = password;
    this.timeoutMs = timeoutMs;
    Object.freeze(this);
  }

  /** The JSON form names the session only: a logged hand-off gives nobody the session. */
  toJSON(): { sessionId: string; timeoutMs: number } {
    return { sessionId: this.sessionId, timeoutMs: this.timeoutMs };
  }

  toString(): string {
    return `SessionHandoff(0x${this.sessionId}, ${this.timeoutMs} ms)`;
  }

  [inspect.custom](): string {
    return `SessionHandoff { sessionId: '${this.sessionId}', password: '[concealed]', timeoutMs: ${this.timeoutMs} }`;
  }
}

/** The hand-off of a session (what `detach()` returns). */
export function sessionHandoff(id: bigint, password: Uint8Array, timeoutMs: number): SessionHandoff {
  return new DetachedSession(
    BigInt.asUintN(64, id).toString(16).padStart(16, '0'),
    Buffer.from(password).toString('hex'),
    timeoutMs,
  );
}

/**
 * The string form of a hand-off, `zkwire-session-1:<sessionId>:<password>:<timeoutMs>`, for an environment
 * variable or an argument. It holds the password: pass it only to the process that resumes the session.
 * @throws InvalidArgumentError when `handoff` is not a valid hand-off.
 */
export function encodeSessionHandoff(handoff: SessionHandoff): string {
  const checked = handoffFields(handoff, 'handoff', 'encodeSessionHandoff');
  return `${ENCODED_PREFIX}:${checked.sessionId}:${checked.password}:${checked.timeoutMs}`;
}

/**
 * The hand-off that {@link encodeSessionHandoff} wrote.
 * @throws InvalidArgumentError when `text` is not one (nothing of it is repeated in the message).
 */
export function decodeSessionHandoff(text: string): SessionHandoff {
  const refuse = (why: string) =>
    new InvalidArgumentError('handoff', why, { operation: 'decodeSessionHandoff' });
  if (typeof text !== 'string') throw refuse(`must be a string, got ${typeof text}`);
  const parts = text.trim().split(':');
  if (parts.length !== 4 || parts[0] !== ENCODED_PREFIX) {
    throw refuse(`must be the string encodeSessionHandoff wrote (${ENCODED_PREFIX}:…)`);
  }
  const [, sessionId, password, timeout] = parts as [string, string, string, string];
  const timeoutMs = /^\d{1,10}$/.test(timeout) ? Number(timeout) : Number.NaN;
  const checked = handoffFields({ sessionId, password, timeoutMs }, 'handoff', 'decodeSessionHandoff');
  return new DetachedSession(checked.sessionId, checked.password, checked.timeoutMs);
}

/** Checks a hand-off's fields (any object of that shape, e.g. one that came through postMessage). */
function handoffFields(value: unknown, argument: string, operation: string): SessionHandoff {
  const refuse = (field: string, why: string) =>
    new InvalidArgumentError(`${argument}.${field}`, why, { operation });
  if (typeof value !== 'object' || value === null) {
    throw new InvalidArgumentError(argument, 'must be a session hand-off object', { operation });
  }
  const { sessionId, password, timeoutMs } = value as Record<string, unknown>;
  if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId) || /^0+$/.test(sessionId)) {
    throw refuse('sessionId', 'must be 16 lowercase hex digits, not all zero');
  }
  if (password === undefined) {
    // JSON.stringify of a hand-off leaves the password out on purpose.
    throw refuse('password', 'is missing (JSON.stringify leaves it out: send encodeSessionHandoff(handoff))');
  }
  if (typeof password !== 'string' || !PASSWORD.test(password)) {
    throw refuse('password', 'must be 32 lowercase hex digits');
  }
  if (
    typeof timeoutMs !== 'number' ||
    !Number.isInteger(timeoutMs) ||
    timeoutMs <= 0 ||
    timeoutMs > MAX_TIMEOUT_MS
  ) {
    throw refuse('timeoutMs', 'must be a positive integer of ms');
  }
  return { sessionId, password, timeoutMs };
}

/**
 * The `session` option, checked before anything is sent: a hand-off (`{ sessionId, password, timeoutMs }`)
 * or a session's `{ id, password }` (the client's `sessionId` and `sessionPassword`).
 * @throws InvalidArgumentError naming the field at fault.
 */
export function sessionCredentials(value: unknown): SessionCredentials | undefined {
  if (value === undefined) return undefined;
  const operation = 'createClient';
  if (typeof value === 'string') {
    throw new InvalidArgumentError(
      'session',
      'must be an object: decode a string with decodeSessionHandoff',
      {
        operation,
      },
    );
  }
  if (typeof value !== 'object' || value === null) {
    throw new InvalidArgumentError('session', 'must be a hand-off or { id, password }', { operation });
  }
  if ('sessionId' in value) {
    const handoff = handoffFields(value, 'session', operation);
    return {
      // Session ids are signed 64-bit numbers on the wire (a server id above 127 makes them negative).
      id: BigInt.asIntN(64, BigInt(`0x${handoff.sessionId}`)),
      password: Buffer.from(handoff.password, 'hex'),
      timeoutMs: handoff.timeoutMs,
    };
  }
  const { id, password } = value as Record<string, unknown>;
  if (typeof id !== 'bigint' || id === 0n || BigInt.asIntN(64, id) !== id) {
    throw new InvalidArgumentError('session.id', 'must be a non-zero 64-bit bigint (a sessionId)', {
      operation,
    });
  }
  if (!(password instanceof Uint8Array) || password.length !== 16) {
    throw new InvalidArgumentError('session.password', 'must be 16 bytes', { operation });
  }
  return { id, password: Buffer.from(password), timeoutMs: undefined };
}
