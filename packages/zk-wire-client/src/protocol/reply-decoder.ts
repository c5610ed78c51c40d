/**
 * How a reply becomes a result: the decoder of an operation, the context it decodes in, and the watch work
 * it declares for the pipeline's settle step (Java's WatchRegistration and WatchDeregistration, applied in
 * finishPacket). Declarations only, importing only util's leaves, so that the decoders (one file per
 * operation), the request FIFO (pending.ts) and the settle step's watch work (watch-registration.ts,
 * watch-removal.ts) all stand on them side by side.
 */
import type { Buffer } from 'node:buffer';
import type { ChrootMapping } from '../util/chroot-types.js';
import type { Watcher } from '../util/types.js';

/**
 * What a decoder may use besides the reply: the chroot (to strip paths) and the server's version. The settle
 * step sees more (the watch tables, the ordered dispatch of watch events: `SettleContext`, watch-removal.ts).
 */
export interface ReplyContext {
  readonly chroot: ChrootMapping;
  readonly serverVersion: string | undefined;
}

/** What a decoder sees of its request (a PendingRequest, pending.ts). */
export interface DecodedRequest {
  /** The client path (for errors and watch registration). */
  readonly path: string | undefined;
  /** Operation-specific data the decoder needs (a watcher, the requested ops of a multi, ...). */
  readonly context: unknown;
}

/**
 * `data`, `child`: a one-shot watch at the request's path; `exists`: a data watch, or an exist watch when
 * the node is missing; `config`: a data watch under the config node's key (whatever the chroot);
 * `persistent`: addWatch's persistent or recursive watch, from its context.
 */
export type WatchRegistration = 'data' | 'exists' | 'child' | 'config' | 'persistent';

/** The two persistent watch modes (addWatch, add-watch.ts). */
export type AddWatchModeName = 'persistent' | 'persistent-recursive';

/** What addWatch's request carries: the context its `persistent` registration reads. */
export interface AddWatchContext {
  watcher: Watcher;
  mode: AddWatchModeName;
}

/** What a removal's reply says of the server watch: removed (removeWatches) or kept (checkWatches). */
export type WatchDeregistration = 'removeWatches' | 'checkWatches';

/** How a reply becomes a result; one static object per operation, so a request holds no closures. */
export interface ReplyDecoder<R = unknown> {
  /** The operation name, used in errors. */
  readonly operation: string;
  /** True for reads and addWatch, whose reply registers the watcher the request carries (its context). */
  readonly armsWatch?: boolean;
  /**
   * The watch a settled reply enters the request's watcher (its context, when set) in; the pipeline does it
   * (watch-registration.ts), not the decoder.
   */
  readonly registers?: WatchRegistration;
  /**
   * The watches a settled removeWatches or checkWatches reply checks and removes, with the request's
   * context; the pipeline does it (watch-removal.ts), not the decoder.
   */
  readonly deregisters?: WatchDeregistration;
  /** Codes other than 0 that are results rather than errors (exists on a missing node: -101). */
  readonly resultCodes?: readonly number[];
  /**
   * Builds the result from the reply, for err = 0 or one of `resultCodes` (other codes reject the call
   * without calling it). May throw a ZooKeeperError (the call fails) or a codec error (the connection ends).
   */
  decode(context: ReplyContext, request: DecodedRequest, err: number, payload: Buffer, offset: number): R;
}
