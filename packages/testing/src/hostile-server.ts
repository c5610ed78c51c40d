/**
 * A fake ZooKeeper server for hostile-input tests only: it completes a real handshake (it reads the client's
 * ConnectRequest and answers a ConnectResponse) and then does what the test scripts, bytes a real server would
 * never send included. It proves that bad bytes do not crash a client, hang its calls or make it storm; it is
 * never evidence that the client is correct (that takes a real server).
 *
 * Frames (wire-protocol.md §1-§3): int32 length, then
 *   ConnectRequest:  int protocolVersion, long lastZxidSeen, int timeOut, long sessionId, buffer passwd, [bool readOnly]
 *   ConnectResponse: int protocolVersion, int timeOut, long sessionId, buffer passwd, bool readOnly
 *   request:         int xid, int type, body          reply: int xid, long zxid, int err, body
 *   notification:    xid -1, zxid -1, err 0, then int type, int state, ustring path
 */
import { createServer, type Server, type Socket } from 'node:net';

/** What the client asked for in its ConnectRequest. */
export interface HostileConnectRequest {
  lastZxidSeen: bigint;
  timeOut: number;
  sessionId: bigint;
  passwd: Buffer;
  readOnly: boolean;
}

/** One request after the handshake. */
export interface HostileRequest {
  xid: number;
  /** The opcode (1 create, 3 exists, 4 getData, 11 ping, -11 closeSession, ...). */
  type: number;
  /** The request body after the header. */
  body: Buffer;
}

/** The fields of a ConnectResponse; anything left out takes the honest value. */
export interface HostileConnectResponse {
  /** Default: the requested timeout. 0 or below: the session is gone. */
  timeOut?: number;
  /** Default: the requested session, or a new one. */
  sessionId?: bigint;
  passwd?: Buffer;
}

/** One accepted connection, as a script sees it. */
export interface HostilePeer {
  /** 0-based, in accepting order. */
  readonly index: number;
  /** The ConnectRequest, once read. */
  readonly connectRequest: HostileConnectRequest | undefined;
  /** Writes raw bytes. */
  send(bytes: Buffer): void;
  /** Writes a reply frame. */
  reply(xid: number, options?: { zxid?: bigint; err?: number; body?: Buffer }): void;
  /** Writes `bytes` one byte every `intervalMs` (until the connection ends). */
  dribble(bytes: Buffer, intervalMs: number): void;
  /** Half-closes (FIN). */
  end(): void;
  /** Resets the connection. */
  destroy(): void;
  readonly destroyed: boolean;
}

/** The script of a hostile server: what to answer at each step. */
export interface HostileScript {
  /**
   * The answer to a ConnectRequest: fields of an honest ConnectResponse to change, raw bytes to send instead,
   * or 'silent' to send nothing (a host that accepts and never answers). Default: honest.
   */
  onConnect?(
    request: HostileConnectRequest,
    peer: HostilePeer,
  ): HostileConnectResponse | Buffer | 'silent' | undefined;
  /**
   * Every request after the handshake, pings included. Default: a ping gets its ping reply, closeSession
   * an OK, anything else NoNode (-101: `exists` resolves null, reads reject NoNodeError).
   */
  onRequest?(request: HostileRequest, peer: HostilePeer): void;
}

/** A running hostile server. */
export interface HostileServer extends AsyncDisposable {
  readonly host: string;
  readonly port: number;
  readonly connectString: string;
  /** Every ConnectRequest read, in order. */
  readonly connectRequests: HostileConnectRequest[];
  /** Connections accepted since the start. */
  readonly totalConnections: number;
  /** Connections open now. */
  readonly peers: readonly HostilePeer[];
  /** Replaces the script (for connections accepted and requests read from now on). */
  setScript(script: HostileScript): void;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** A frame: the int32 length, then `body`. */
export function zkFrame(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length);
  return Buffer.concat([length, body]);
}

/** A reply frame: header {xid, zxid, err}, then `body`. */
export function replyFrame(
  xid: number,
  options: { zxid?: bigint; err?: number; body?: Buffer } = {},
): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32BE(xid, 0);
  header.writeBigInt64BE(options.zxid ?? 1n, 4);
  header.writeInt32BE(options.err ?? 0, 12);
  return zkFrame(options.body ? Buffer.concat([header, options.body]) : header);
}

/** A watch notification frame; `path` null writes a null string (length -1), bytes are written as they are. */
export function notificationFrame(type: number, path: string | Buffer | null, state = 3): Buffer {
  const bytes = path === null ? null : typeof path === 'string' ? Buffer.from(path, 'utf8') : path;
  const body = Buffer.alloc(12 + (bytes?.length ?? 0));
  body.writeInt32BE(type, 0);
  body.writeInt32BE(state, 4);
  body.writeInt32BE(bytes === null ? -1 : bytes.length, 8);
  bytes?.copy(body, 12);
  return replyFrame(-1, { zxid: -1n, body });
}

/** A ConnectResponse frame (with the readOnly byte). */
export function connectResponseFrame(timeOut: number, sessionId: bigint, passwd: Buffer): Buffer {
  const body = Buffer.alloc(4 + 4 + 8 + 4 + passwd.length + 1);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(timeOut, 4);
  body.writeBigInt64BE(sessionId, 8);
  body.writeInt32BE(passwd.length, 16);
  passwd.copy(body, 20);
  return zkFrame(body);
}

/**
 * Decodes a client's ConnectRequest from its body (the frame without the length prefix): int, long, int, long,
 * buffer, boolean. A negative password length reads as an empty password.
 */
export function decodeConnectRequest(body: Buffer): HostileConnectRequest {
  const passwdLength = body.readInt32BE(24);
  return {
    lastZxidSeen: body.readBigInt64BE(4),
    timeOut: body.readInt32BE(12),
    sessionId: body.readBigInt64BE(16),
    passwd: Buffer.from(body.subarray(28, 28 + Math.max(0, passwdLength))),
    readOnly: body[28 + passwdLength] === 1,
  };
}

const OP_PING = 11;
const OP_CLOSE_SESSION = -11;
const ERR_NO_NODE = -101;

/** The default answer to a request (see {@link HostileScript.onRequest}). */
export function honestReply(request: HostileRequest, peer: HostilePeer): void {
  if (request.type === OP_PING) peer.reply(-2, { zxid: 0n });
  else if (request.type === OP_CLOSE_SESSION) peer.reply(request.xid);
  else peer.reply(request.xid, { err: ERR_NO_NODE });
}

/** Starts a hostile server on 127.0.0.1 and a free port. */
export async function startHostileServer(script: HostileScript = {}): Promise<HostileServer> {
  let current = script;
  const sockets = new Set<Socket>();
  const peers: HostilePeer[] = [];
  const connectRequests: HostileConnectRequest[] = [];
  let total = 0;
  let nextSession = 0x1000n;

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const timers = new Set<NodeJS.Timeout>();
    let pending = Buffer.alloc(0);
    let request: HostileConnectRequest | undefined;
    const peer: HostilePeer = {
      index: total++,
      get connectRequest() {
        return request;
      },
      send: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
      reply: (xid, options) => peer.send(replyFrame(xid, options)),
      dribble: (bytes, intervalMs) => {
        let at = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || at >= bytes.length) {
            clearInterval(timer);
            timers.delete(timer);
            return;
          }
          peer.send(bytes.subarray(at, at + 1));
          at++;
        }, intervalMs);
        timers.add(timer);
      },
      end: () => socket.end(),
      destroy: () => socket.destroy(),
      get destroyed() {
        return socket.destroyed;
      },
    };
    peers.push(peer);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      peers.splice(peers.indexOf(peer), 1);
      for (const timer of timers) clearInterval(timer);
    });
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readInt32BE(0);
        if (length < 0 || pending.length < 4 + length) return;
        const body = pending.subarray(4, 4 + length);
        pending = pending.subarray(4 + length);
        if (request === undefined) {
          request = decodeConnectRequest(body);
          connectRequests.push(request);
          answerConnect(request, peer);
        } else if (body.length >= 8) {
          const next = { xid: body.readInt32BE(0), type: body.readInt32BE(4), body: body.subarray(8) };
          (current.onRequest ?? honestReply)(next, peer);
        }
      }
    });
  });

  const answerConnect = (request: HostileConnectRequest, peer: HostilePeer) => {
    const answer = current.onConnect?.(request, peer);
    if (answer === 'silent') return;
    if (Buffer.isBuffer(answer)) {
      peer.send(answer);
      return;
    }
    const sessionId = answer?.sessionId ?? (request.sessionId !== 0n ? request.sessionId : nextSession++);
    peer.send(
      connectResponseFrame(
        answer?.timeOut ?? request.timeOut,
        sessionId,
        answer?.passwd ?? Buffer.alloc(16, 7),
      ),
    );
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    host: '127.0.0.1',
    port,
    connectString: `127.0.0.1:${port}`,
    connectRequests,
    get totalConnections() {
      return total;
    },
    peers,
    setScript: (next) => {
      current = next;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
