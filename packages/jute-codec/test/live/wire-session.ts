// A bare wire session for the live-server tests: a socket, a FrameReader and a FIFO of pending replies.
// It uses nothing but this codec, so what it shows about the server's bytes is about the codec alone.
import net from 'node:net';
import {
  decodeConnectResponse,
  encodeConnectRequest,
  FrameReader,
  fast,
  type ReplyHeader,
  records,
  type WatcherEvent,
  Xid,
} from '../../src/index';

/** A reply: its header and the raw payload (header included). */
export interface Reply {
  header: ReplyHeader;
  payload: Buffer;
}

/** What a session sees, in arrival order: replies and notifications. */
export type Seen = { kind: 'reply'; xid: number } | { kind: 'event'; event: WatcherEvent };

export class WireSession {
  readonly payloads: Buffer[] = [];
  readonly seen: Seen[] = [];
  readonly events: WatcherEvent[] = [];
  private readonly reader = new FrameReader();
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private connected?: (payload: Buffer) => void;
  private failure?: Error;
  private nextXid = 1;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const payload of this.reader.push(chunk)) this.dispatch(payload);
    });
    socket.on('error', (error) => {
      this.failure = error;
    });
  }

  /** Connects and completes the handshake. */
  static async open(
    host: string,
    port: number,
  ): Promise<{
    session: WireSession;
    response: ReturnType<typeof decodeConnectResponse>;
    rawConnectResponse: Buffer;
  }> {
    const socket = net.connect(port, host);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const session = new WireSession(socket);
    const payload = await new Promise<Buffer>((resolve) => {
      session.connected = resolve;
      socket.write(
        encodeConnectRequest({
          protocolVersion: 0,
          lastZxidSeen: 0n,
          timeOut: 10_000,
          sessionId: 0n,
          passwd: Buffer.alloc(16),
          readOnly: false,
        }),
      );
    });
    return { session, response: decodeConnectResponse(payload), rawConnectResponse: payload };
  }

  /** The next ordinary xid. */
  xid(): number {
    return this.nextXid++;
  }

  /** Writes `frame` and resolves with the reply whose xid is `xid`. */
  send(xid: number, frame: Buffer): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => {
      this.waiting.set(xid, resolve);
      this.socket.write(frame);
    });
  }

  /** Resolves when `count` notifications have arrived in all. */
  async eventsUntil(count: number): Promise<WatcherEvent[]> {
    for (let i = 0; i < 200 && this.events.length < count; i++) await new Promise((r) => setTimeout(r, 25));
    return this.events;
  }

  close(): void {
    this.socket.destroy();
  }

  private dispatch(payload: Buffer): void {
    if (this.connected) {
      const done = this.connected;
      this.connected = undefined;
      done(payload);
      return;
    }
    this.payloads.push(payload);
    const header = fast.decodeReplyHeader(payload, 0);
    if (header.xid === Xid.NOTIFICATION) {
      const event = records.WatcherEvent.decode(payload, 16, payload.length).value;
      this.events.push(event);
      this.seen.push({ kind: 'event', event });
      return;
    }
    this.seen.push({ kind: 'reply', xid: header.xid });
    const waiter = this.waiting.get(header.xid);
    this.waiting.delete(header.xid);
    waiter?.({ header, payload });
  }
}
