/**
 * A bare session on a net.Socket: a hand-encoded handshake, then reply frames are cut by their length
 * prefix and reported as (xid, err) without decoding their bodies. This is what the raw limit costs on the
 * client side: about nothing.
 */
import net from 'node:net';
import { closeSessionFrame, connectFrame } from './raw-frames.js';

/** Called for every reply frame after the handshake. */
export type OnReply = (xid: number, err: number) => void;

const HEAD = 20; // 4-byte length + ReplyHeader (xid 4, zxid 8, err 4)

/** Counts reply frames across chunk boundaries, reading only the first 20 bytes of each. */
export class ReplyCounter {
  private readonly head = Buffer.alloc(HEAD);
  private headLength = 0;
  private skip = 0;

  constructor(private readonly onReply: OnReply) {}

  push(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, n - i);
        this.skip -= step;
        i += step;
        continue;
      }
      if (this.headLength === 0 && n - i >= HEAD) {
        const length = chunk.readInt32BE(i);
        this.frame(length, chunk.readInt32BE(i + 4), chunk.readInt32BE(i + 16));
        i += HEAD;
        continue;
      }
      const step = Math.min(HEAD - this.headLength, n - i);
      chunk.copy(this.head, this.headLength, i, i + step);
      this.headLength += step;
      i += step;
      if (this.headLength === HEAD) {
        this.headLength = 0;
        this.frame(this.head.readInt32BE(0), this.head.readInt32BE(4), this.head.readInt32BE(16));
      }
    }
  }

  private frame(length: number, xid: number, err: number): void {
    if (length < 16 || length > 0x4fffff) throw new Error(`raw: bad reply frame length ${length}`);
    this.skip = length - 16;
    this.onReply(xid, err);
  }
}

/** The read buffer of a socket read by callback: a read of this many bytes filled it. */
export const RAW_READ_BUFFER_BYTES = 64 * 1024;

/**
 * Opens a socket, performs the handshake and returns it with the bytes that followed the ConnectResponse.
 * With `readByCallback` the socket reads through `onread` into one buffer and emits a copy of each read as
 * 'data': only such a socket stops reading on pause() (a stream socket goes on filling its buffer).
 */
export async function openRawSession(
  host: string,
  port: number,
  options: { readByCallback?: boolean } = {},
): Promise<{ socket: net.Socket; rest: Buffer }> {
  const readBuffer = options.readByCallback ? Buffer.allocUnsafe(RAW_READ_BUFFER_BYTES) : undefined;
  const socket: net.Socket = net.connect({
    host,
    port,
    noDelay: true,
    ...(readBuffer && {
      onread: {
        buffer: readBuffer,
        callback: (bytes: number) => socket.emit('data', Buffer.from(readBuffer.subarray(0, bytes))),
      },
    }),
  });
  return await new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error('raw: no ConnectResponse within 10 s')), 10_000);
    socket.once('error', fail);
    socket.once('connect', () => socket.write(connectFrame()));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 4) return;
      const length = buffered.readInt32BE(0);
      if (buffered.length < 4 + length) return;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      const timeOut = buffered.readInt32BE(8);
      if (timeOut <= 0) return fail(new Error('raw: the server refused the session'));
      resolve({ socket, rest: buffered.subarray(4 + length) });
    };
    socket.on('data', onData);
  });
}

/** Sends closeSession and waits for the server to close the socket (or 2 s). */
export async function closeRawSession(socket: net.Socket): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve();
    }, 2_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => {});
    socket.write(closeSessionFrame(0x7ffffff0));
  });
}

/** "host:port" (the first host of a connect string, no chroot) */
export function firstHost(connectString: string): { host: string; port: number } {
  const first = (connectString.split('/')[0] ?? '').split(',')[0] ?? '';
  const at = first.lastIndexOf(':');
  return { host: first.slice(0, at), port: Number(first.slice(at + 1)) };
}
