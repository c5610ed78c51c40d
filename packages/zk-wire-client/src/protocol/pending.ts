/**
 * Requests on their way: the request object, and the FIFO of requests written to the socket and waiting for
 * their replies. The server answers one session's requests in order (wire-protocol.md §8), so each reply
 * must match the head of the FIFO; anything else is a protocol error that ends the connection.
 */
import { Buffer } from 'node:buffer';
import { type RequestTraceContext, traceRequestSettled } from '../util/diagnostics.js';
import type { ZooKeeperError } from '../util/errors.js';
import type { CallOptions } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';
import type { GatedFeature } from './server-version.js';

/** Options of one submitted request (pipeline/pipeline.ts `submit`). */
export interface SubmitOptions extends CallOptions {
  /** Send even when the session is closing (closeSession itself). */
  internal?: boolean;
}

/** Where a request is. */
export const RequestState = { queued: 0, written: 1, settled: 2 } as const;
/** One of {@link RequestState}. */
export type RequestState = (typeof RequestState)[keyof typeof RequestState];

/** What a written request's frame is replaced with (see {@link PendingRequest.sent}). */
const SENT = Buffer.alloc(0);

/**
 * The fields few requests set (an abort signal, a version gate, a local answer, a recovery, a trace), kept
 * out of line: every field of a request costs 8 bytes for each request in flight, and most requests have
 * none of these. One class, every field present, so that all extras share one shape.
 */
class RequestExtras<R> {
  detach: (() => void) | undefined = undefined;
  feature: GatedFeature | undefined = undefined;
  gate: GatedFeature | undefined = undefined;
  local: { value: R } | { error: unknown } | undefined = undefined;
  recover: ((error: unknown) => { value: R | Promise<R> } | undefined) | undefined = undefined;
  trace: RequestTraceContext | undefined = undefined;
}

/** One request: its frame, its decoder, and the promise callbacks. */
export class PendingRequest<R = unknown> {
  state: RequestState = RequestState.queued;
  /** ms timestamp after which the request times out (0 = never). */
  deadline = 0;
  /** The rarely set fields, made by the first setter (see the accessors below). */
  private extras: RequestExtras<R> | undefined = undefined;

  constructor(
    /** The xid of the request; written into the frame. */
    readonly xid: number,
    /** The complete frame (length prefix included); empty once written (see {@link sent}). */
    public frame: Buffer,
    /** Decoder of the reply. */
    readonly decoder: ReplyDecoder<R>,
    /** The client path (for errors and watch registration). */
    readonly path: string | undefined,
    /** Operation-specific data the decoder needs (a watcher, the requested ops of a multi, ...). */
    readonly context: unknown,
    readonly resolve: (value: R) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  /** The extras, made now if no field of them was set before. */
  private get writableExtras(): RequestExtras<R> {
    if (this.extras === undefined) this.extras = new RequestExtras<R>();
    return this.extras;
  }

  /** Cleans up an abort listener when the request settles. */
  get detach(): (() => void) | undefined {
    return this.extras?.detach;
  }
  set detach(value: (() => void) | undefined) {
    this.writableExtras.detach = value;
  }

  /** The feature a server must have for this request (addWatch, multiRead, ...). */
  get feature(): GatedFeature | undefined {
    return this.extras?.feature;
  }
  set feature(value: GatedFeature | undefined) {
    this.writableExtras.feature = value;
  }

  /**
   * The feature still to check against the connected server's version when the request reaches the head
   * of the outgoing queue (which waits for the version if it is not known yet); cleared once decided.
   */
  get gate(): GatedFeature | undefined {
    return this.extras?.gate;
  }
  set gate(value: GatedFeature | undefined) {
    this.writableExtras.gate = value;
  }

  /** Answered locally, in its place: never written, settled when it reaches the head of the FIFO. */
  get local(): { value: R } | { error: unknown } | undefined {
    return this.extras?.local;
  }
  set local(value: { value: R } | { error: unknown } | undefined) {
    this.writableExtras.local = value;
  }

  /**
   * Turns a failure into another outcome while the request settles (createParents retries after NoNode,
   * removeWatches with `local` removes after ConnectionLoss): undefined keeps the failure.
   */
  get recover(): ((error: unknown) => { value: R | Promise<R> } | undefined) | undefined {
    return this.extras?.recover;
  }
  set recover(value: ((error: unknown) => { value: R | Promise<R> } | undefined) | undefined) {
    this.writableExtras.recover = value;
  }

  /** The request's trace (util/diagnostics.ts), when someone subscribed to request tracing as it was made. */
  get trace(): RequestTraceContext | undefined {
    return this.extras?.trace;
  }
  set trace(value: RequestTraceContext | undefined) {
    this.writableExtras.trace = value;
  }

  /**
   * Marks the request written and lets go of its frame. Nothing reads a frame after it is written (a
   * request is never sent twice), and a frame held until the reply survives the young-generation GC with
   * every request in flight: 1,000 multis in flight kept ~1.7 MB of frames alive from one GC to the next.
   */
  sent(): Buffer {
    const frame = this.frame;
    this.frame = SENT;
    this.state = RequestState.written;
    return frame;
  }

  /** Settles with a value unless already settled; false when the result had to be discarded. */
  fulfil(value: R): boolean {
    if (this.state === RequestState.settled) return false;
    this.state = RequestState.settled;
    this.detach?.();
    if (this.trace !== undefined) traceRequestSettled(this.trace, { value });
    this.resolve(value);
    return true;
  }

  /** Rejects unless already settled (or settles as `recover` says). */
  fail(error: ZooKeeperError | unknown): boolean {
    if (this.state === RequestState.settled) return false;
    this.state = RequestState.settled;
    this.detach?.();
    if (this.trace !== undefined) traceRequestSettled(this.trace, { error });
    const recovered = this.recover?.(error);
    if (recovered !== undefined) (this.resolve as (value: R | Promise<R>) => void)(recovered.value);
    else this.reject(error);
    return true;
  }

  /** Settles with the local answer (see {@link local}). */
  settleLocally(): void {
    const local = this.local;
    if (local === undefined) return;
    if ('error' in local) this.fail(local.error);
    else this.fulfil(local.value);
  }
}
