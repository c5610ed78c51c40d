import { connect, type Socket } from 'node:net';

/*
 * A minimal ZooKeeper wire client for this package's own tests, so that they do not depend on the client
 * package they exist to test. Grammar from wire-protocol.md: every frame is int32 length + body.
 *   ConnectRequest:  int protocolVersion, long lastZxidSeen, int timeOut, long sessionId, buffer passwd, bool readOnly
 *   ConnectResponse: int protocolVersion, int timeOut, long sessionId, buffer passwd [, bool readOnly]
 *   RequestHeader:   int xid, int type        ReplyHeader: int xid, long zxid, int err
 */

const OP_CREATE = 1;
const OP_GET_DATA = 4;
const OP_CREATE_TTL = 21;
const MODE_PERSISTENT_WITH_TTL = 5;

/** The 49-byte ConnectRequest frame (readOnly: may a read-only server take it) (length prefix included) for a new session. */
export function connectRequestFrame(timeoutMs = 10_000, readOnly = false): Buffer {
  const body = Buffer.alloc(45);
  body.writeInt32BE(0, 0); // protocolVersion
  body.writeBigInt64BE(0n, 4); // lastZxidSeen
  body.writeInt32BE(timeoutMs, 12);
  body.writeBigInt64BE(0n, 16); // sessionId
  body.writeInt32BE(16, 24); // passwd length, 16 zero bytes follow
  body.writeUInt8(readOnly ? 1 : 0, 44);
  return frame(body);
}

function frame(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length);
  return Buffer.concat([length, body]);
}

function str(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function int(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

/** Reads whole frames (bodies without the length prefix) from a socket. */
export class FrameReader {
  private buffered = Buffer.alloc(0);
  private waiters: Array<(frame: Buffer) => void> = [];
  private frames: Buffer[] = [];

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 4) {
        const length = this.buffered.readInt32BE(0);
        if (this.buffered.length < 4 + length) break;
        const body = this.buffered.subarray(4, 4 + length);
        this.buffered = this.buffered.subarray(4 + length);
        const waiter = this.waiters.shift();
        if (waiter) waiter(body);
        else this.frames.push(body);
      }
    });
  }

  next(): Promise<Buffer> {
    const ready = this.frames.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** A connected raw session: create and getData only, one request at a time. */
export class RawSession {
  private xid = 1;
  private constructor(
    private readonly socket: Socket,
    private readonly reader: FrameReader,
    readonly sessionId: bigint,
  ) {}

  static async open(host: string, port: number): Promise<RawSession> {
    const socket = connect({ host, port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const reader = new FrameReader(socket);
    socket.write(connectRequestFrame());
    const response = await reader.next();
    if (response.length < 36) throw new Error(`ConnectResponse of ${response.length} bytes`);
    return new RawSession(socket, reader, response.readBigInt64BE(8));
  }

  private async request(type: number, body: Buffer): Promise<{ err: number; body: Buffer }> {
    const xid = this.xid++;
    this.socket.write(frame(Buffer.concat([int(xid), int(type), body])));
    const reply = await this.reader.next();
    if (reply.readInt32BE(0) !== xid) throw new Error(`reply xid ${reply.readInt32BE(0)}, expected ${xid}`);
    return { err: reply.readInt32BE(12), body: reply.subarray(16) };
  }

  /** Creates a persistent node with the open ACL; resolves with the server's error code (0 = ok). */
  async create(path: string, data: Buffer): Promise<number> {
    const acl = Buffer.concat([int(1), int(31), str('world'), str('anyone')]);
    const body = Buffer.concat([str(path), int(data.length), data, acl, int(0)]);
    return (await this.request(OP_CREATE, body)).err;
  }

  /** Creates a persistent node with a TTL (needs -Dzookeeper.extendedTypesEnabled=true); resolves with the error code. */
  async createTtl(path: string, ttlMs: number): Promise<number> {
    const acl = Buffer.concat([int(1), int(31), str('world'), str('anyone')]);
    const ttl = Buffer.alloc(8);
    ttl.writeBigInt64BE(BigInt(ttlMs));
    const body = Buffer.concat([str(path), int(0), acl, int(MODE_PERSISTENT_WITH_TTL), ttl]);
    return (await this.request(OP_CREATE_TTL, body)).err;
  }

  /** Reads a node's data; resolves with undefined when the server answers with an error. */
  async getData(path: string): Promise<Buffer | undefined> {
    const { err, body } = await this.request(OP_GET_DATA, Buffer.concat([str(path), Buffer.from([0])]));
    if (err !== 0) return undefined;
    const length = body.readInt32BE(0);
    return length < 0 ? Buffer.alloc(0) : Buffer.from(body.subarray(4, 4 + length));
  }

  close(): void {
    this.socket.destroy();
  }
}
