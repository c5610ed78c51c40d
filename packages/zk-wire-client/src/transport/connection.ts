/**
 * One TCP (or TLS) connection to one server: the socket, the frame reader, writes, read pacing under load
 * (read-pacing.ts), and the liveness timer (read timeout and idle pings, wire-protocol.md §7.1-7.2). It knows
 * frames, not requests: the session decides what to write and what a frame means.
 *
 * A socket of our own (plain TCP or TLS) is read with `onread` into one reusable buffer, since only such a
 * socket really stops reading while paused (a stream socket goes on filling its buffer). A read is handed on
 * as a view of that buffer, not a copy: its frames are decoded before the read's callback returns, and what
 * outlives the read is copied by whoever keeps it (data through `ownedData` in protocol/get-data.ts, the
 * session password, the SASL token; the frame reader copies a frame split across reads). A copy of every read
 * made the garbage collector run more often under load. A
 * `connectionFactory` socket (and TLS over one) is read as a stream, unpaced.
 */
import type { Buffer } from 'node:buffer';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { FrameReader, JuteCodecError } from '@zkwire/jute-codec';
import { tlsErrorFrom } from '../security/tls-error.js';
import { tlsConnectOptions } from '../security/tls-options.js';
import { publishReadPacing } from '../util/diagnostics.js';
import { ConnectionLossError, messageOf, ProtocolError, type ZooKeeperError } from '../util/errors.js';
import type { ClientOptions, HostAddress } from '../util/types.js';
import { type ConnectionBuffers, READ_BUFFER_BYTES, sharedConnectionBuffers } from './connection-buffers.js';
import { livenessVerdict, MIN_LIVENESS_DELAY_MS, nextLivenessCheck, PING_FRAME } from './liveness.js';
import { ReadPacer, type ReadPacingSettings } from './read-pacing.js';

/** What the owner of a connection is told. */
export interface ConnectionHandler {
  /** Socket connected: time to write the ConnectRequest. */
  onOpen(connection: Connection): void;
  /** One frame payload (no length prefix), in arrival order. Throwing ends the connection. */
  onFrame(connection: Connection, payload: Buffer): void;
  /** The socket can take more after a write that filled its buffer. */
  onDrain(connection: Connection): void;
  /** Requests written and not yet answered (read pacing waits only when they are many). */
  awaitingReplies(connection: Connection): number;
  /** The connection ended (once); `error` says why. */
  onClose(connection: Connection, error: ZooKeeperError): void;
}

/** What {@link Connection.open} needs of the client options. */
export interface ConnectionOptions
  extends Pick<ClientOptions, 'tls' | 'connectionFactory' | 'maxFrameLength'> {
  /** Read pacing under load; undefined reads every reply as it lands. */
  readPacing?: ReadPacingSettings | undefined;
  /** The read and staging buffers (default: those every connection of the process shares). */
  buffers?: ConnectionBuffers | undefined;
}

/**
 * The connection a socket belongs to. The socket's listeners are functions shared by every connection, with
 * the socket as `this`, not closures made per connection: a closure and the context it keeps are about 100
 * bytes, and a process may hold thousands of idle connections.
 */
const OWNER = Symbol('zkwire.connection');
type OwnedSocket = Socket & { [OWNER]: Connection };

function onSocketData(this: OwnedSocket, chunk: Buffer): void {
  this[OWNER].receive(chunk);
}
function onSocketDrain(this: OwnedSocket): void {
  this[OWNER].drained();
}
function onSocketError(this: OwnedSocket, error: Error): void {
  this[OWNER].socketFailed(error);
}
function onSocketClose(this: OwnedSocket): void {
  this[OWNER].socketClosed();
}

/** A connection to one server. */
export class Connection {
  /** ms timestamp of the last received chunk. */
  lastReceived = Date.now();
  /** ms timestamp of the last write. */
  lastSent = Date.now();
  /** True while a write filled the socket buffer and 'drain' has not come yet. */
  waitingDrain = false;
  private closed = false;
  /** True once the socket (and TLS handshake) is up. */
  private opened = false;
  private isTls = false;
  private readonly reader: FrameReader;
  private readonly buffers: ConnectionBuffers;
  private timer: NodeJS.Timeout | undefined;
  /** The read timeout of the connected rules (setConnected). */
  private readTimeoutMs = 0;
  /** Read pacing's settings: undefined when this connection is not paced. */
  private readonly pacing: ReadPacingSettings | undefined;
  /**
   * Made at the first read with `pacing.minInFlight` requests awaiting replies (below that it never waits):
   * a connection that never carries such a load, an idle session, does without it.
   */
  private pacer: ReadPacer | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  /**
   * True from a read until the event loop's next check phase: writes made meanwhile were made by the
   * callers the read's replies woke (a closed loop), which is when read pacing pays (read-pacing.ts).
   */
  private inReadTurn = false;
  private readTurnEnding = false;
  /** Made with the pacer, which alone needs them. */
  private endReadTurn: (() => void) | undefined;
  private resumeBound: (() => void) | undefined;
  /**
   * A plain TCP socket we opened ourselves: it keeps no reference to bytes it handed to the kernel, so its
   * writes are staged or sent as views of the frame slab and released once taken (write-staging.ts). A TLS
   * or `connectionFactory` socket may keep what it was given: its frames are joined, and nothing is released.
   */
  private releasesWrites = false;
  /** ms timestamp since which a frame has been partly received without completing (0 = none pending). */
  partialSince = 0;

  private constructor(
    readonly socket: Socket,
    readonly address: HostAddress,
    private readonly handler: ConnectionHandler,
    options: ConnectionOptions,
    /** Reads arrive through `onread` (a socket we opened, plain or TLS), not 'data' events. */
    readsByCallback: boolean,
  ) {
    const { maxFrameLength, readPacing } = options;
    this.buffers = options.buffers ?? sharedConnectionBuffers;
    this.reader = new FrameReader(maxFrameLength === undefined ? undefined : { maxFrameLength });
    // Only a socket read by callback is paced: a paused stream socket goes on reading into its buffer, so
    // waiting there saves no wake-ups and costs more per reply.
    this.pacing = readsByCallback ? readPacing : undefined;
    socket.setNoDelay(true);
    (socket as OwnedSocket)[OWNER] = this;
    if (!readsByCallback) socket.on('data', onSocketData);
    socket.on('drain', onSocketDrain);
    socket.on('error', onSocketError);
    socket.on('close', onSocketClose);
  }

  /** The socket's 'drain': it takes more after a write that filled its buffer. */
  drained(): void {
    this.waitingDrain = false;
    if (!this.closed) this.handler.onDrain(this);
  }

  /**
   * The socket's 'error'. Errors are built only for a connection still open: a socket we closed ourselves
   * still emits 'close', and building an error (its stack) for it would be wasted on every session's end.
   */
  socketFailed(error: Error): void {
    if (this.closed) return;
    // Certificate and handshake failures are configuration errors, reported as such (security module).
    const tlsError = this.isTls
      ? tlsErrorFrom(error, `${this.address.host}:${this.address.port}`, this.opened)
      : undefined;
    this.close(tlsError ?? new ConnectionLossError({ cause: error }));
  }

  /** The socket's 'close'. */
  socketClosed(): void {
    if (!this.closed) this.close(new ConnectionLossError({ cause: new Error('socket closed') }));
  }

  /** Opens a connection: `connectionFactory`, else TLS when `tls` is set, else plain TCP. */
  static open(address: HostAddress, options: ConnectionOptions, handler: ConnectionHandler): Connection {
    let socket: Socket;
    let connectEvent = 'connect';
    let readsByCallback = false;
    // Set right below; no read can come before the socket connects.
    let connection!: Connection;
    // Reads of a socket we open ourselves (plain or TLS) come through this callback; built only for those.
    const onread = () => {
      readsByCallback = true;
      return {
        buffer: (options.buffers ?? sharedConnectionBuffers).readBuffer,
        // The buffer is ours (ConnectionBuffers); the view is valid until this callback returns.
        callback: (bytes: number, buffer: Uint8Array) => {
          connection.receive((buffer as Buffer).subarray(0, bytes));
          return true; // pausing, when paced, goes through socket.pause()
        },
      };
    };
    try {
      if (options.tls) {
        // Over a factory's socket (a proxy in tests) TLS runs inside it, still checked against the real host.
        const base = tlsConnectOptions(options.tls, address.host, address.port);
        const inner = options.connectionFactory?.(address.host, address.port);
        // @types/node lacks `onread` on tls.connect, which hands it to the socket it opens (node:_tls_wrap).
        socket = tls.connect(
          inner ? { ...base, socket: inner } : ({ ...base, onread: onread() } as tls.ConnectionOptions),
        );
        connectEvent = 'secureConnect';
      } else if (options.connectionFactory) {
        socket = options.connectionFactory(address.host, address.port);
      } else {
        socket = net.connect({ host: address.host, port: address.port, onread: onread() });
      }
    } catch (error) {
      // A throwing factory or unusable TLS material (a bad PEM throws here) fails this attempt, not the process.
      const failed = new Connection(new net.Socket(), address, handler, options, false);
      queueMicrotask(() => failed.close(new ConnectionLossError({ cause: error })));
      return failed;
    }
    connection = new Connection(socket, address, handler, options, readsByCallback);
    connection.isTls = connectEvent === 'secureConnect';
    connection.releasesWrites = readsByCallback && !connection.isTls;
    const opened = () => {
      connection.opened = true;
      if (!connection.closed) handler.onOpen(connection);
    };
    // A factory may hand over a socket that is already connected.
    if (
      connectEvent === 'connect' &&
      options.connectionFactory &&
      !socket.connecting &&
      socket.readyState === 'open'
    ) {
      queueMicrotask(opened);
    } else {
      socket.once(connectEvent, opened);
    }
    return connection;
  }

  /** True once closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Writes frames as one chunk (on a plain socket of our own, a view over them or a copy in the shared
   * staging buffer, see write-staging.ts); returns false when the socket buffer is full (wait for onDrain
   * before writing more).
   */
  writeFrames(frames: readonly Buffer[], size: number): boolean {
    if (frames.length === 1) return this.write(frames[0]!);
    const staging = this.buffers.staging;
    return this.write(this.releasesWrites ? staging.stage(frames, size) : staging.join(frames, size));
  }

  /**
   * Writes bytes; returns false when the socket buffer is full (wait for onDrain before writing more). On a
   * socket that {@link releasesWrites}, the bytes are then released if the socket handed them all to the
   * kernel: a request frame's slab bytes, or the staging buffer.
   */
  write(bytes: Buffer): boolean {
    if (this.closed) return false;
    this.lastSent = Date.now();
    this.pacer?.noteWrite(bytes.length, this.inReadTurn);
    const ok = this.socket.write(bytes);
    if (!ok) this.waitingDrain = true;
    if (this.releasesWrites) this.buffers.staging.release(bytes, this.socket.writableLength === 0);
    return ok;
  }

  /**
   * Starts the liveness timer. While not yet connected, `connectTimeoutMs` bounds the whole attempt (TCP
   * connect, TLS handshake, ConnectResponse); once connected ({@link setConnected}), silence longer than the
   * read timeout, or a frame that takes longer than it to complete, ends the connection, and idle sending
   * triggers pings.
   */
  startTimer(connectTimeoutMs: number): void {
    this.stopTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.close(
        new ConnectionLossError({ cause: new Error(`no ConnectResponse within ${connectTimeoutMs} ms`) }),
      );
    }, connectTimeoutMs);
    this.timer.unref();
  }

  /**
   * Switches the timer to the connected rules, with the read timeout derived from the negotiated timeout.
   * The timer sleeps until the next check can be due (a ping, the read timeout, a frame's read deadline)
   * rather than ticking: a connection that is busy or idle then wakes about once per ping interval, which
   * is what thousands of idle sessions in one process cost.
   */
  setConnected(readTimeoutMs: number): void {
    this.stopTimer();
    this.readTimeoutMs = readTimeoutMs;
    this.scheduleLiveness(Date.now());
  }

  private scheduleLiveness(now: number): void {
    const delay = Math.max(MIN_LIVENESS_DELAY_MS, nextLivenessCheck(this, this.readTimeoutMs) - now);
    // The connection as the timer's argument, not a closure over it: no closure made per check.
    this.timer = setTimeout(Connection.livenessDue, delay, this);
    this.timer.unref();
  }

  private static livenessDue(connection: Connection): void {
    connection.timer = undefined;
    const at = Date.now();
    connection.checkLiveness(connection.readTimeoutMs, at);
    if (!connection.closed) connection.scheduleLiveness(at);
  }

  private checkLiveness(readTimeoutMs: number, now: number): void {
    const verdict = livenessVerdict(this, readTimeoutMs, now);
    if (verdict === 'ping') this.write(PING_FRAME);
    else if (verdict !== undefined) this.close(verdict);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Hands on the frames of one read, then lets the pacer decide whether to wait before the next. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    this.lastReceived = Date.now();
    // Counted before the replies of this read settle their requests: the depth the caller keeps up.
    const pacing = this.pacing;
    const awaiting = pacing === undefined ? 0 : this.handler.awaitingReplies(this);
    if (pacing !== undefined && awaiting >= pacing.minInFlight) {
      if (this.pacer === undefined) this.startPacing(pacing);
      this.markReadTurn();
    }
    let frames: Buffer[];
    try {
      frames = this.reader.push(chunk);
    } catch (error) {
      this.close(new ConnectionLossError({ cause: new ProtocolError(messageOf(error), { cause: error }) }));
      return;
    }
    this.trackPartialFrame(frames.length > 0);
    for (const frame of frames) {
      if (this.closed) return;
      try {
        this.handler.onFrame(this, frame);
      } catch (error) {
        const cause = JuteCodecError.isInstance(error)
          ? new ProtocolError(`undecodable reply: ${error.message}`, { cause: error })
          : error;
        this.close(new ConnectionLossError({ cause }));
        return;
      }
    }
    // A bad length after whole frames in the same read: those were answers, handed on above; now the end.
    const failure = this.reader.failure;
    if (failure !== null && !this.closed) {
      this.close(new ConnectionLossError({ cause: new ProtocolError(failure.message, { cause: failure }) }));
      return;
    }
    if (this.pacer !== undefined && !this.closed) {
      // The read's own Date.now(): whole ms suit 20 ms rate windows, and a read reads the clock once.
      const waitMs = this.pacer.afterRead(this.lastReceived, frames.length, awaiting, chunk.length);
      if (waitMs > 0) {
        publishReadPacing(waitMs, awaiting);
        this.pauseReading(waitMs);
      }
    }
  }

  /**
   * Notes when a partly received frame started waiting for its end: a server that dribbles a byte now and
   * then keeps the connection looking alive, so the liveness check also bounds how long one frame may take.
   */
  private trackPartialFrame(completedOne: boolean): void {
    if (this.reader.buffered === 0) this.partialSince = 0;
    else if (completedOne || this.partialSince === 0) this.partialSince = this.lastReceived;
  }

  /** The first read with enough requests awaiting replies to pace on: the pacer's windows start now. */
  private startPacing(settings: ReadPacingSettings): void {
    this.pacer = new ReadPacer(settings, this.lastReceived, READ_BUFFER_BYTES);
    this.endReadTurn = () => {
      this.inReadTurn = false;
      this.readTurnEnding = false;
    };
    this.resumeBound = () => this.resumeReading();
  }

  /** Marks the writes of this turn (the replies' callers and their microtasks) as driven by a read. */
  private markReadTurn(): void {
    this.inReadTurn = true;
    if (!this.readTurnEnding) {
      this.readTurnEnding = true;
      setImmediate(this.endReadTurn!);
    }
  }

  private pauseReading(ms: number): void {
    this.socket.pause();
    this.resumeTimer = setTimeout(this.resumeBound!, ms);
  }

  private resumeReading(): void {
    this.resumeTimer = undefined;
    if (!this.closed) this.socket.resume();
  }

  /** Ends the connection (once) and tells the handler why. */
  close(error: ZooKeeperError = new ConnectionLossError()): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimer();
    if (this.resumeTimer !== undefined) clearTimeout(this.resumeTimer);
    this.socket.destroy();
    this.handler.onClose(this, error);
  }
}
