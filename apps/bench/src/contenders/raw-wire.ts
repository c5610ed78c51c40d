/**
 * The raw limit's wire: request frames written by hand (it must not depend on any client or codec under
 * test), built once before the clock starts, and a bare session on a net.Socket whose reply frames are cut by
 * their length prefix and reported as (xid, err) without decoding their bodies.
 */
import net from 'node:net';

export const RawOpCode = {
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  /** getChildren's fastest form: the server caches the serialized answers of getChildren2, not of getChildren (8). */
  getChildren2: 12,
  multi: 14,
};

/** A big-endian writer for jute primitives; frames are built once, so simplicity wins over speed. */
class JuteWriter {
  private readonly parts: Buffer[] = [];
  private fixed(size: number, write: (b: Buffer) => void): this {
    const b = Buffer.alloc(size);
    write(b);
    this.parts.push(b);
    return this;
  }
  int = (v: number) => this.fixed(4, (b) => b.writeInt32BE(v));
  long = (v: bigint) => this.fixed(8, (b) => b.writeBigInt64BE(v));
  bool = (v: boolean) => this.fixed(1, (b) => b.writeUInt8(v ? 1 : 0));
  /** jute `buffer` and `ustring`: int length, then the bytes */
  bytes(value: Buffer | string): this {
    const b = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    this.int(b.length).parts.push(b);
    return this;
  }
  /** the payload with its 4-byte length prefix */
  frame(): Buffer {
    const body = Buffer.concat(this.parts);
    return Buffer.concat([new JuteWriter().int(body.length).parts[0] as Buffer, body]);
  }
}

const request = (xid: number, opCode: number) => new JuteWriter().int(xid).int(opCode);

/** ConnectRequest for a new session, with the trailing readOnly byte. */
export const connectFrame = () =>
  new JuteWriter().int(0).long(0n).int(30_000).long(0n).bytes(Buffer.alloc(16)).bool(false).frame();

/** getData, exists and getChildren share `ustring path, boolean watch`. */
export const pathWatchFrame = (xid: number, opCode: number, path: string, watch = false) =>
  request(xid, opCode).bytes(path).bool(watch).frame();

export const setDataFrame = (xid: number, path: string, data: Buffer) =>
  request(xid, RawOpCode.setData).bytes(path).bytes(data).int(-1).frame();

/** persistent, open ACL (world:anyone, all permissions) */
export const createFrame = (xid: number, path: string, data: Buffer) =>
  request(xid, RawOpCode.create)
    .bytes(path)
    .bytes(data)
    .int(1)
    .int(31)
    .bytes('world')
    .bytes('anyone')
    .int(0)
    .frame();

export const deleteFrame = (xid: number, path: string) =>
  request(xid, RawOpCode.delete).bytes(path).int(-1).frame();

/** A multi of setData: a MultiHeader before each op, then the terminator {-1, true, -1}. */
export function multiSetDataFrame(xid: number, paths: readonly string[], data: Buffer): Buffer {
  const w = request(xid, RawOpCode.multi);
  for (const path of paths) w.int(RawOpCode.setData).bool(false).int(-1).bytes(path).bytes(data).int(-1);
  return w.int(-1).bool(true).int(-1).frame();
}

const HEAD = 20; // length 4 + ReplyHeader (xid 4, zxid 8, err 4)

/** Counts reply frames across chunk boundaries, reading only the first 20 bytes of each. */
export class ReplyCounter {
  private readonly head = Buffer.alloc(HEAD);
  private headLength = 0;
  private skip = 0;

  constructor(private readonly onReply: (xid: number, err: number) => void) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, chunk.length - i);
        this.skip -= step;
        i += step;
      } else if (this.headLength === 0 && chunk.length - i >= HEAD) {
        this.frame(chunk.readInt32BE(i), chunk.readInt32BE(i + 4), chunk.readInt32BE(i + 16));
        i += HEAD;
      } else {
        const step = Math.min(HEAD - this.headLength, chunk.length - i);
        chunk.copy(this.head, this.headLength, i, i + step);
        this.headLength += step;
        i += step;
        if (this.headLength < HEAD) continue;
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

/** A socket read by callback reads into a buffer of this size: a read of that many bytes filled it. */
export const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Connects, performs the handshake, and returns the socket with the bytes after the ConnectResponse. With
 * `readByCallback` the socket reads through `onread` into one buffer: only such a socket stops reading on
 * pause() (a stream socket goes on filling its buffer).
 */
export function openRawSession(connectString: string, readByCallback = false) {
  const first = (connectString.split('/')[0] ?? '').split(',')[0] ?? '';
  const at = first.lastIndexOf(':');
  const readBuffer = readByCallback ? Buffer.allocUnsafe(READ_BUFFER_BYTES) : undefined;
  const socket: net.Socket = net.connect({
    host: first.slice(0, at),
    port: Number(first.slice(at + 1)),
    noDelay: true,
    ...(readBuffer && {
      onread: {
        buffer: readBuffer,
        callback: (n: number) => socket.emit('data', Buffer.from(readBuffer.subarray(0, n))),
      },
    }),
  });
  return new Promise<{ socket: net.Socket; rest: Buffer }>((resolve, reject) => {
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
      if (buffered.length < 4 || buffered.length < 4 + buffered.readInt32BE(0)) return;
      clearTimeout(timer);
      socket.off('data', onData).off('error', fail);
      if (buffered.readInt32BE(8) <= 0) return fail(new Error('raw: the server refused the session'));
      resolve({ socket, rest: buffered.subarray(4 + buffered.readInt32BE(0)) });
    };
    socket.on('data', onData);
  });
}

/** Sends closeSession and waits for the server to close the socket (or 2 s). */
export function closeRawSession(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve();
    }, 2_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => {});
    socket.write(request(0x7ffffff0, -11).frame());
  });
}
