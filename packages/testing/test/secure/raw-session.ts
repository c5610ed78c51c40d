/*
 * A minimal hand-rolled ZooKeeper session for testing the secure launcher without depending on our client:
 * ConnectRequest, then request/reply frames in order (wire-protocol.md §2-3). Test-only.
 */
import type { Socket } from 'node:net';

/** Reads length-prefixed frames off a socket, one at a time, in order. */
export class RawSession {
  private buffered = Buffer.alloc(0);
  private waiting: ((frame: Buffer | null) => void) | undefined;
  private closed = false;
  private xid = 0;
  /** The socket's error, when it closed with one (a TLS 1.3 server refuses a certificate after the handshake). */
  error: Error | undefined;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.deliver();
    });
    const end = () => {
      this.closed = true;
      this.deliver();
    };
    socket.on('close', end);
    socket.on('error', (error) => {
      this.error = error;
      end();
    });
  }

  private deliver(): void {
    if (!this.waiting) return;
    if (this.buffered.length >= 4) {
      const length = this.buffered.readInt32BE(0);
      if (this.buffered.length >= 4 + length) {
        const frame = this.buffered.subarray(4, 4 + length);
        this.buffered = this.buffered.subarray(4 + length);
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(frame);
        return;
      }
    }
    if (this.closed) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(null);
    }
  }

  /** The next frame payload, or null once the server closed the connection. */
  next(): Promise<Buffer | null> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }

  /** Sends a ConnectRequest for a new session and returns the session id from the ConnectResponse. */
  async handshake(): Promise<bigint> {
    const request = Buffer.alloc(49);
    request.writeInt32BE(45, 0);
    request.writeInt32BE(10_000, 16);
    request.writeInt32BE(16, 28);
    this.socket.write(request);
    const response = await this.next();
    if (!response) {
      throw this.error ?? new Error('server closed the connection instead of a ConnectResponse');
    }
    return response.readBigInt64BE(8);
  }

  /** Sends one request (header + body) and returns its reply: err and the body after the header. */
  async call(type: number, body: Buffer = Buffer.alloc(0)): Promise<{ err: number; body: Buffer } | null> {
    const xid = ++this.xid;
    const frame = Buffer.alloc(12 + body.length);
    frame.writeInt32BE(8 + body.length, 0);
    frame.writeInt32BE(xid, 4);
    frame.writeInt32BE(type, 8);
    body.copy(frame, 12);
    this.socket.write(frame);
    const reply = await this.next();
    if (!reply) return null;
    if (reply.readInt32BE(0) !== xid) throw new Error(`reply xid ${reply.readInt32BE(0)} != ${xid}`);
    return { err: reply.readInt32BE(12), body: reply.subarray(16) };
  }

  /** whoAmI (opcode 107): the identities of this connection as `scheme:user` strings. */
  async whoAmI(): Promise<string[]> {
    const reply = await this.call(107);
    if (reply?.err !== 0) throw new Error(`whoAmI failed: ${reply ? reply.err : 'closed'}`);
    const ids: string[] = [];
    let offset = 4;
    const readString = () => {
      const length = reply.body.readInt32BE(offset);
      offset += 4;
      const text = length < 0 ? '' : reply.body.toString('utf8', offset, offset + length);
      offset += Math.max(length, 0);
      return text;
    };
    for (let i = reply.body.readInt32BE(0); i > 0; i--) ids.push(`${readString()}:${readString()}`);
    return ids;
  }
}

/** A jute `buffer`: 4-byte length then bytes. */
export function juteBuffer(bytes: Buffer): Buffer {
  const out = Buffer.alloc(4 + bytes.length);
  out.writeInt32BE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}
