/**
 * The request pipeline of a session: requests waiting to be written (`outbound`), requests written and
 * waiting for their replies (the FIFO), coalesced writes, reply matching, and the one shared timer for
 * per-call deadlines.
 *
 * Writes are coalesced: requests made in the same tick go out in one socket write at the next microtask, in
 * chunks of at most {@link WRITE_CHUNK} bytes, and writing stops while the socket waits for 'drain'.
 */
import { int32At, uint32At } from '@zkwire/jute-codec/internal';
import { PendingRequest, RequestState, type SubmitOptions } from '../protocol/pending.js';
import type { ReplyDecoder } from '../protocol/reply-decoder.js';
import { FEATURE_SINCE } from '../protocol/server-version.js';
import { registerWatch } from '../protocol/watch-registration.js';
import { deregisterWatches, type SettleContext } from '../protocol/watch-removal.js';
import type { Connection } from '../transport/connection.js';
import { traceRequestStart } from '../util/diagnostics.js';
import {
  ConnectionLossError,
  errorFromCode,
  messageOf,
  OperationTimeoutError,
  ProtocolError,
  UnsupportedByServerError,
  ZooKeeperError,
} from '../util/errors.js';
import { Fifo } from '../util/fifo.js';
import { GateVerdict, type VersionGate } from './version-gate.js';

/** The server's errno for an opcode it does not know. */
const UNIMPLEMENTED = -6;
const NONODE = -101;

/** Bytes per coalesced socket write. */
const WRITE_CHUNK = 256 * 1024;
/** Schedules the coalesced write (see submit). */
const RESOLVED = Promise.resolve();
/** Granularity of the deadline timer. */
const DEADLINE_TICK_MS = 25;

/** Queues, writes and matches requests for a session. */
export class RequestPipeline {
  // The last positive zxid of a matched reply, as two 32-bit halves: kept without making a bigint per reply.
  private zxidHigh = 0;
  private zxidLow = 0;
  private outbound: PendingRequest[] = [];
  private readonly fifo = new Fifo<PendingRequest>();
  private connection: Connection | undefined;
  private flushScheduled = false;
  private xid = 0;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** {@link flush} as the coalesced write's callback; made at the first submit (an idle session makes none). */
  private flushBound: (() => void) | undefined;

  constructor(
    private readonly context: SettleContext,
    private readonly defaultTimeoutMs: number,
    private readonly gate: VersionGate,
  ) {}

  /**
   * The zxid of the last reply that carried a positive one, sent in the next ConnectRequest and SetWatches.
   * Java keeps the last, not the largest: one corrupted reply is repaired by the honest ones after it.
   */
  get lastZxid(): bigint {
    return (BigInt(this.zxidHigh) << 32n) | BigInt(this.zxidLow);
  }

  /** A new session starts from zxid 0, as a new Java handle does (the ensemble may be a restored one). */
  resetZxid(): void {
    this.zxidHigh = 0;
    this.zxidLow = 0;
  }

  /** The next xid: 1 to 2147483646, never reset (Java's rule). */
  nextXid(): number {
    this.xid = this.xid >= 2147483646 ? 1 : this.xid + 1;
    return this.xid;
  }

  /** Number of requests written and not yet answered. */
  get awaitingReplies(): number {
    return this.fifo.length;
  }

  /** Number of requests queued or written and not yet answered. */
  get inFlight(): number {
    return this.outbound.length + this.fifo.length;
  }

  /**
   * Queues a request (its frame already holds `xid`) and returns its promise. Requests wait in `outbound`
   * until a connection is ready. The request takes its place in the queue now, in the caller's tick: call
   * order is wire order (ordering.md in docs/contracts.md). `setup` may mark the request (gate, local
   * answer, recovery) before it is queued.
   */
  submit<R>(
    decoder: ReplyDecoder<R>,
    xid: number,
    frame: Buffer,
    path: string | undefined,
    requestContext: unknown,
    options: SubmitOptions | undefined,
    setup?: (request: PendingRequest<R>) => void,
  ): Promise<R> {
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let resolve!: (value: R) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<R>((settle, fail) => {
      resolve = settle;
      reject = fail;
    });
    const request = new PendingRequest<R>(xid, frame, decoder, path, requestContext, resolve, reject);
    if (setup !== undefined) setup(request);
    // Most calls are not traced; setting the trace only when there is one keeps the request's extras unmade.
    const trace = traceRequestStart(decoder.operation, path, xid, frame.length);
    if (trace !== undefined) request.trace = trace;
    if (request.local !== undefined && this.outbound.length === 0 && this.fifo.length === 0) {
      // Nothing before it: settling now keeps the order (and needs no connection).
      request.settleLocally();
      return promise;
    }
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    if (timeoutMs > 0) this.addDeadline(request as PendingRequest, timeoutMs);
    if (signal) {
      const onAbort = () => request.fail(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      request.detach = () => signal.removeEventListener('abort', onAbort);
    }
    this.outbound.push(request as PendingRequest);
    if (this.connection !== undefined && !this.flushScheduled) {
      this.flushScheduled = true;
      // A reaction of a settled promise is a microtask like queueMicrotask's, without the AsyncResource
      // queueMicrotask makes for each call (a quarter of a microsecond per request at one in flight).
      RESOLVED.then((this.flushBound ??= () => this.flush()));
    }
    return promise;
  }

  /**
   * Whether a request queued or on the wire will register a watcher at `path` when it settles (a read with a
   * watch, addWatch): the watch tables do not show it yet. Scans the queues; only watch removal asks.
   */
  armsWatchInFlight(path: string): boolean {
    const arms = (r: PendingRequest) =>
      r.decoder.armsWatch === true &&
      r.path === path &&
      r.context !== undefined &&
      r.state !== RequestState.settled;
    for (const request of this.fifo) if (arms(request)) return true;
    return this.outbound.some(arms);
  }

  /** Starts writing to a connection whose handshake (and SASL, auth) is done. */
  attach(connection: Connection): void {
    this.connection = connection;
    this.flush();
  }

  /** Stops writing (connection lost or closing). */
  detach(): void {
    this.connection = undefined;
  }

  /**
   * Writes a request at once, ahead of `outbound` (SetWatches after a reconnect), and enters it in the FIFO.
   */
  writeNow<R>(connection: Connection, decoder: ReplyDecoder<R>, xid: number, frame: Buffer): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const request = new PendingRequest<R>(xid, frame, decoder, undefined, undefined, resolve, reject);
      this.fifo.push(request as PendingRequest);
      connection.write(request.sent());
    });
  }

  /**
   * Writes queued requests in coalesced chunks until done, until the socket asks to wait for 'drain', or
   * until a gated request waits for the server's version (it holds everything behind it, so that no later
   * call overtakes it). A request answered locally enters the FIFO unwritten and settles when it reaches
   * the head, after every request before it.
   */
  flush(): void {
    this.flushScheduled = false;
    const connection = this.connection;
    if (connection === undefined || connection.waitingDrain || this.outbound.length === 0) return;
    const queue = this.outbound;
    this.outbound = [];
    let frames: Buffer[] = [];
    let size = 0;
    for (let i = 0; i < queue.length; i++) {
      const request = queue[i]!;
      if (request.state !== RequestState.queued) continue;
      if (request.gate !== undefined) {
        const verdict = this.gate.decide(request.gate);
        if (verdict === GateVerdict.wait) {
          if (frames.length > 0) connection.writeFrames(frames, size);
          this.outbound = queue.slice(i).concat(this.outbound);
          return;
        }
        request.gate = undefined;
        if (verdict !== GateVerdict.send) request.local = { error: verdict };
      }
      this.fifo.push(request);
      if (request.local !== undefined) {
        request.state = RequestState.written;
        if (this.fifo.length === 1) this.settleLocalAtHead();
        continue;
      }
      const frame = request.sent();
      frames.push(frame);
      size += frame.length;
      if (size >= WRITE_CHUNK) {
        connection.writeFrames(frames, size);
        frames = [];
        size = 0;
        if (connection.waitingDrain) {
          this.outbound = queue.slice(i + 1).concat(this.outbound);
          return;
        }
      }
    }
    if (frames.length > 0) connection.writeFrames(frames, size);
  }

  /** Settles the locally answered requests at the head of the FIFO (nothing before them is pending). */
  private settleLocalAtHead(): void {
    for (let head = this.fifo.peek(); head?.local !== undefined; head = this.fifo.peek()) {
      this.fifo.shift();
      head.settleLocally();
    }
  }

  /**
   * Matches an ordinary reply against the FIFO head and settles that request. A reply with no head or
   * another xid is a protocol error: thrown, so that the connection ends.
   */
  handleReply(payload: Buffer, xid: number): void {
    const request = this.fifo.peek();
    if (request === undefined || request.xid !== xid) {
      throw new ProtocolError(
        request === undefined
          ? `reply xid ${xid} with nothing pending`
          : `reply xid ${xid}, expected ${request.xid}`,
      );
    }
    this.fifo.shift();
    if (request.trace !== undefined) request.trace.bytesIn = payload.length + 4;
    this.settle(request, payload);
    // Unwritten requests answered locally (server too old, closed client) settle in their place.
    if (this.fifo.peek()?.local !== undefined) this.settleLocalAtHead();
  }

  /** Settles a matched request from its reply: decoded, or failed with the server's error. */
  private settle(request: PendingRequest, payload: Buffer): void {
    const high = int32At(payload, 4);
    const low = uint32At(payload, 8);
    if (high > 0 || (high === 0 && low !== 0)) {
      this.zxidHigh = high;
      this.zxidLow = low;
    }
    // Aborted or timed out while on the wire: the reply is read and dropped (no watch registered either).
    if (request.state === RequestState.settled) return;
    const err = int32At(payload, 12);
    const decoder = request.decoder;
    if (err !== 0 && (decoder.resultCodes === undefined || !decoder.resultCodes.includes(err))) {
      const path = request.path;
      const detail = err === NONODE ? this.context.chroot.missingDetail(decoder.operation, path) : undefined;
      const error = errorFromCode(err, { path, operation: decoder.operation, detail });
      const feature = request.feature;
      // An old server's answer to an opcode it lacks (the version could not be asked beforehand).
      if (err === UNIMPLEMENTED && feature !== undefined) {
        const context = { path: request.path, operation: decoder.operation, cause: error };
        request.fail(
          new UnsupportedByServerError(FEATURE_SINCE[feature], this.context.serverVersion, context),
        );
      } else {
        request.fail(error);
      }
      return;
    }
    let value: unknown;
    try {
      value = decoder.decode(this.context, request, err, payload, 16);
    } catch (error) {
      if (ZooKeeperError.isInstance(error)) {
        request.fail(error);
        return;
      }
      // Bytes that do not decode end the connection: the call and the connection report the same cause.
      const cause = new ProtocolError(`undecodable ${decoder.operation} reply: ${messageOf(error)}`, {
        cause: error,
      });
      request.fail(new ConnectionLossError({ path: request.path, operation: decoder.operation, cause }));
      throw cause;
    }
    // The watch the decoder declares, entered or removed before the promise resolves (Java's finishPacket).
    // Both take the request's context (a watcher, a removal); most calls have none.
    const requestContext = request.context;
    if (requestContext !== undefined) {
      if (decoder.registers !== undefined) {
        registerWatch(this.context, decoder.registers, request.path!, requestContext, err);
      } else if (decoder.deregisters !== undefined) {
        const path = request.path!;
        const refused = deregisterWatches(this.context, decoder.deregisters, path, requestContext, err);
        if (refused !== undefined) {
          request.fail(refused);
          return;
        }
      }
    }
    request.fulfil(value);
  }

  /**
   * Fails requests: those written (always) and those queued (when `includeQueued`), each with its own error
   * from `makeError`. Used on disconnect (ConnectionLoss), expiry and close.
   */
  failAll(makeError: (request: PendingRequest) => unknown, includeQueued: boolean): void {
    const fail = (request: PendingRequest) => {
      if (request.local !== undefined) request.settleLocally();
      else if (request.state !== RequestState.settled) request.fail(makeError(request));
    };
    for (const request of this.fifo.drain()) fail(request);
    if (includeQueued) {
      const queued = this.outbound;
      this.outbound = [];
      for (const request of queued) fail(request);
    }
  }

  /** {@link failAll} with a ConnectionLossError per request, naming its path and operation. */
  failAllWithConnectionLoss(cause: unknown, includeQueued: boolean): void {
    this.failAll(
      (r) => new ConnectionLossError({ path: r.path, operation: r.decoder.operation, cause }),
      includeQueued,
    );
  }

  private addDeadline(request: PendingRequest, timeoutMs: number): void {
    request.deadline = Date.now() + timeoutMs;
    if (this.deadlineTimer === undefined) {
      this.deadlineTimer = setInterval(() => this.expireDeadlines(), DEADLINE_TICK_MS);
      this.deadlineTimer.unref();
    }
  }

  /** One shared timer scans the queues; it stops once no unsettled request has a deadline. */
  private expireDeadlines(): void {
    const now = Date.now();
    let live = 0;
    const check = (request: PendingRequest) => {
      if (request.deadline === 0 || request.state === RequestState.settled) return;
      if (now >= request.deadline) {
        request.fail(new OperationTimeoutError({ path: request.path, operation: request.decoder.operation }));
      } else {
        live++;
      }
    };
    for (const request of this.fifo) check(request);
    for (const request of this.outbound) check(request);
    if (live === 0) this.stopDeadlineTimer();
  }

  private stopDeadlineTimer(): void {
    if (this.deadlineTimer !== undefined) clearInterval(this.deadlineTimer);
    this.deadlineTimer = undefined;
  }

  /** Stops the deadline timer (client closed). */
  dispose(): void {
    this.stopDeadlineTimer();
  }
}
