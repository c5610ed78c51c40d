/**
 * The request pipeline of a session: requests waiting to be written (`outbound`), requests written and
 * waiting for their replies (the FIFO), coalesced writes, reply matching, and the one shared timer for
 * per-call deadlines.
 *
 * Writes are coalesced: requests made in the same tick go out in one socket write at the next microtask, in
 * chunks of at most {@link WRITE_CHUNK} bytes, and writing stops while the socket waits for 'drain'.
 */
import type { Connection } from './connection.js';
import {
  ConnectionLossError,
  errorFromCode,
  OperationTimeoutError,
  ProtocolError,
  ZooKeeperError,
} from './errors.js';
import { Fifo, PendingRequest, type ReplyContext, type ReplyDecoder, RequestState } from './pending.js';
import type { CallOptions } from './types.js';

/** Bytes per coalesced socket write. */
const WRITE_CHUNK = 256 * 1024;
/** Granularity of the deadline timer. */
const DEADLINE_TICK_MS = 25;

/** Options of one submitted request. */
export interface SubmitOptions extends CallOptions {
  /** Send even when the session is closing (closeSession itself). */
  internal?: boolean;
}

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
  private readonly flushBound = () => this.flush();

  constructor(
    private readonly context: ReplyContext,
    private readonly defaultTimeoutMs: number,
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
   * until a connection is ready.
   */
  submit<R>(
    decoder: ReplyDecoder<R>,
    xid: number,
    frame: Buffer,
    path: string | undefined,
    requestContext: unknown,
    options: SubmitOptions | undefined,
  ): Promise<R> {
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let resolve!: (value: R) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<R>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const request = new PendingRequest<R>(xid, frame, decoder, path, requestContext, resolve, reject);
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
      queueMicrotask(this.flushBound);
    }
    return promise;
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
      request.state = RequestState.written;
      this.fifo.push(request as PendingRequest);
      connection.write(frame);
    });
  }

  /** Writes queued requests in coalesced chunks until done or the socket asks to wait for 'drain'. */
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
      request.state = RequestState.written;
      this.fifo.push(request);
      frames.push(request.frame);
      size += request.frame.length;
      if (size >= WRITE_CHUNK || i === queue.length - 1) {
        connection.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames, size));
        frames = [];
        size = 0;
        if (connection.waitingDrain) {
          this.outbound = queue.slice(i + 1).concat(this.outbound);
          return;
        }
      }
    }
    if (frames.length > 0) connection.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames, size));
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
    const high = payload.readInt32BE(4);
    const low = payload.readUInt32BE(8);
    if (high > 0 || (high === 0 && low !== 0)) {
      this.zxidHigh = high;
      this.zxidLow = low;
    }
    // Aborted or timed out while on the wire: the reply is read and dropped (no watch registered either).
    if (request.state === RequestState.settled) return;
    const err = payload.readInt32BE(12);
    const decoder = request.decoder;
    if (err !== 0 && (decoder.resultCodes === undefined || !decoder.resultCodes.includes(err))) {
      request.fail(errorFromCode(err, { path: request.path, operation: decoder.operation }));
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
      const cause = new ProtocolError(`undecodable ${decoder.operation} reply: ${describe(error)}`, {
        cause: error,
      });
      request.fail(new ConnectionLossError({ path: request.path, operation: decoder.operation, cause }));
      throw cause;
    }
    request.fulfil(value);
  }

  /**
   * Fails requests: those written (always) and those queued (when `includeQueued`), each with its own error
   * from `makeError`. Used on disconnect (ConnectionLoss), expiry and close.
   */
  failAll(makeError: (request: PendingRequest) => unknown, includeQueued: boolean): void {
    for (const request of this.fifo.drain()) {
      if (request.state !== RequestState.settled) request.fail(makeError(request));
    }
    if (includeQueued) {
      const queued = this.outbound;
      this.outbound = [];
      for (const request of queued)
        if (request.state !== RequestState.settled) request.fail(makeError(request));
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
