/**
 * What identifies the session to a server: its id and password, the timeout the server granted, and
 * whether a read-write server ever handed them out. A session from a read-only server is valid nowhere
 * else (wire-protocol.md §2.1), so until a read-write server grants one, every ConnectRequest asks for a new
 * session. Each granted ConnectResponse replaces all of it; an expiry with autoRecreateSession forgets it.
 */
import { Buffer } from 'node:buffer';
import { type decodeConnectResponse, encodeConnectRequest } from '@zkwire/jute-codec';

type ConnectResponse = ReturnType<typeof decodeConnectResponse>;

export class SessionIdentity {
  /** 0n until the first ConnectResponse, and again after the session is forgotten. */
  id = 0n;
  password: Buffer = Buffer.alloc(16);
  /** The timeout the server granted; 0 while there is no session. */
  negotiatedTimeoutMs = 0;
  private seenReadWriteServer: boolean;

  constructor(given: { id: bigint; password: Buffer } | undefined) {
    if (given !== undefined) {
      this.id = given.id;
      this.password = given.password;
    }
    // A handle built with an explicit session counts as having seen a read-write server (§2.1).
    this.seenReadWriteServer = given !== undefined;
  }

  /** The ConnectRequest frame: a new session (id 0) until a read-write server handed one out (§2.1). */
  connectRequest(lastZxidSeen: bigint, timeoutMs: number, canBeReadOnly: boolean): Buffer {
    const reattach = this.seenReadWriteServer;
    return encodeConnectRequest({
      protocolVersion: 0,
      lastZxidSeen,
      timeOut: timeoutMs,
      sessionId: reattach ? this.id : 0n,
      passwd: reattach ? this.password : Buffer.alloc(16),
      readOnly: canBeReadOnly,
    });
  }

  /**
   * Takes the session a ConnectResponse granted (timeOut > 0). Returns whether the session's watches carry
   * over: they do when it is the session presented, and when moving on from a read-only server's session
   * (a new one then, its watches restored on it, as in Java).
   */
  accept(response: ConnectResponse): boolean {
    const watchesCarryOver = (this.id !== 0n && response.sessionId === this.id) || !this.seenReadWriteServer;
    this.id = response.sessionId;
    this.password = Buffer.from(response.passwd ?? Buffer.alloc(16));
    this.negotiatedTimeoutMs = response.timeOut;
    if (!response.readOnly) this.seenReadWriteServer = true;
    return watchesCarryOver;
  }

  /**
   * True when the session can be resumed elsewhere (`detach()`): granted by a read-write server (a read-only
   * server's session is valid nowhere else, §2.1) and not forgotten.
   */
  get resumable(): boolean {
    return this.id !== 0n && this.negotiatedTimeoutMs > 0 && this.seenReadWriteServer;
  }

  /** After an expiry (autoRecreateSession): the next connection asks for a new session. */
  forget(): void {
    this.id = 0n;
    this.password = Buffer.alloc(16);
    this.negotiatedTimeoutMs = 0;
  }
}
