/**
 * What every public call shares: path mapping into the chroot, argument helpers, submission to the
 * session's pipeline, and the record a client's multis check their ops into. Calls take an xid first and
 * build their frame with it, so a request carries no closure besides its promise.
 *
 * Order: a call checks its arguments (a bad one is refused at once, before anything is queued) and takes
 * its xid and its place in the pipeline synchronously, in the caller's tick, with no await in between. A
 * refusal (closed client, expired session) and a server too old for the call are answered in that place
 * too, so that every call settles in call order (docs/contracts.md, "Order").
 *
 * Most calls are one {@link CallKind} each, made by {@link ClientCore.call}: one place holds the order of a
 * call's steps and turns a throw into a rejection (calls never throw synchronously).
 */
import { type CreateArgs, isSequential } from '../protocol/create.js';
import { type CheckedMulti, emptyCheckedMulti } from '../protocol/multi.js';
import type { PendingRequest, SubmitOptions } from '../protocol/pending.js';
import type { ReplyDecoder } from '../protocol/reply-decoder.js';
import type { GatedFeature } from '../protocol/server-version.js';
import { aclArg, DEFAULT_MAX_DATA_LENGTH, dataBytes, modeArg, ttlArg } from '../util/args.js';
import { CheckedPaths } from '../util/checked-paths.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { ACL, CallOptions, CreateMode, Data, Watcher } from '../util/types.js';
import type { CallSession } from './call-session.js';

/**
 * Refuses an options argument that is not an object: in plain JavaScript `setData(path, data, 3)` would
 * otherwise drop the version silently and write unconditionally.
 */
export function optionsArg(options: unknown, operation: string, path: string | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const got = options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options;
    throw new InvalidArgumentError('options', `must be an object (got ${got})`, { operation, path });
  }
}

/**
 * One kind of call, a module constant (made by {@link callKind}) so that a call makes no closure: how its
 * reply is decoded (the decoder names the operation), where its path goes, the watch it can arm, and how its
 * frame is written.
 */
export interface CallKind<R, A, O extends CallOptions> {
  readonly decoder: ReplyDecoder<R>;
  /** The path is a client path, checked and mapped into the chroot; else it is sent (or not) as it is. */
  readonly chrooted: boolean;
  /** The one-shot watch a `watch` option arms, by the same request; undefined: the call takes none. */
  readonly watch: 'data' | 'child' | undefined;
  /** The key the watch is kept under, when not the path (the config node's under a chroot). */
  readonly watchKey: ((core: ClientCore) => string) | undefined;
  /** Marks the request of a call the server may be too old for (see {@link ClientCore.submitGated}). */
  readonly setup: ((request: PendingRequest<R>) => void) | undefined;
  /**
   * Checks the call's own arguments, then writes its frame. `serverPath` is the path as sent, `arms` whether
   * the request arms a server watch.
   */
  readonly encode: (
    xid: number,
    serverPath: string,
    arms: boolean,
    arg: A,
    options: O | undefined,
    path: string,
    core: ClientCore,
  ) => Buffer;
}

/** A {@link CallKind}, every field set, so that every kind has the same shape. */
export function callKind<R, A = undefined, O extends CallOptions = CallOptions>(kind: {
  decoder: ReplyDecoder<R>;
  chrooted?: boolean;
  watch?: 'data' | 'child';
  watchKey?: (core: ClientCore) => string;
  gated?: GatedFeature;
  encode: CallKind<R, A, O>['encode'];
}): CallKind<R, A, O> {
  const feature = kind.gated;
  return {
    decoder: kind.decoder,
    chrooted: kind.chrooted ?? true,
    watch: kind.watch,
    watchKey: kind.watchKey,
    setup:
      feature === undefined
        ? undefined
        : (request) => {
            request.feature = feature;
            request.gate = feature;
          },
    encode: kind.encode,
  };
}

/**
 * Longest multi whose record is kept for the next call. A record's arrays keep the length of the longest multi
 * checked into them, so one transaction of 50,000 deletes would otherwise hold ~1.6 MB of arrays for as long as
 * the client lives.
 */
const KEPT_UP_TO = 1024;

const NO_PATHS: string[] = [];

/**
 * The CheckedMulti a client's multi calls check their ops into, one per client (its ClientCore holds it): the
 * four arrays a multi needs only until its frame is built are a good part of what a multi allocates, and at
 * depth a multi's CPU goes with what it allocates (made, then collected by the young-generation GC); the
 * results array is sized once for the same reason (protocol/multi.ts). A call made while the record is in
 * use (an op's getter calling multi) checks into a record of its own.
 */
export class CheckedMultiSpare {
  /** The record kept, made by the first multi (a client that never calls multi keeps none). */
  private spare: CheckedMulti | undefined;
  private inUse = false;

  /** The record set up for `count` ops (a new `paths` array each time), or a new one if in use. */
  borrow(count: number): CheckedMulti {
    if (this.inUse) return emptyCheckedMulti(count);
    this.inUse = true;
    const checked = (this.spare ??= emptyCheckedMulti(0));
    checked.paths = new Array(count);
    return checked;
  }

  /** Lets go of what the last multi's checked ops held (its data, its paths) and keeps `checked`. */
  giveBack(checked: CheckedMulti): void {
    if (checked !== this.spare) return; // a record of its own, made while the kept one was in use
    this.inUse = false;
    const count = checked.paths.length;
    if (count > KEPT_UP_TO) {
      this.spare = undefined;
      return;
    }
    for (let i = 0; i < count; i++) {
      checked.data[i] = null;
      checked.serverPaths[i] = undefined;
    }
    checked.creates = undefined;
    checked.paths = NO_PATHS;
  }
}

/** The shared plumbing of a client. */
export class ClientCore {
  private readonly checkedPaths: CheckedPaths;
  /** The record this client's multi calls check their ops into (multi-calls.ts). */
  readonly multiSpare = new CheckedMultiSpare();

  constructor(
    readonly session: CallSession,
    readonly maxDataLength: number = DEFAULT_MAX_DATA_LENGTH,
  ) {
    this.checkedPaths = new CheckedPaths(session.chroot);
  }

  /** Validates a client path and returns the server path. Throws InvalidArgumentError. */
  serverPath(path: string, operation: string, sequential = false): string {
    return this.checkedPaths.serverPath(path, operation, sequential);
  }

  /**
   * Checks a non-sequential client path; returns the UTF-8 bytes of its server path (for a multi's frame),
   * shared with every later call for that path: copied from, never written to.
   */
  serverPathBytes(path: string, operation: string): Buffer {
    return this.checkedPaths.serverPathBytes(path, operation);
  }

  /**
   * Makes a call of `kind` at `path` (undefined for a call without one) with its argument and options:
   * checks the path and the watch, takes the xid, writes the frame and takes the call's place in the
   * pipeline, all in the caller's tick; any throw on the way becomes the rejection.
   */
  call<R, A, O extends CallOptions>(
    kind: CallKind<R, A, O>,
    path: string | undefined,
    arg: A,
    options: (O & { watch?: Watcher | undefined }) | undefined,
  ): Promise<R> {
    try {
      const operation = kind.decoder.operation;
      const serverPath = kind.chrooted ? this.serverPath(path as string, operation) : (path as string);
      let watcher: Watcher | undefined;
      let arms = false;
      if (kind.watch !== undefined) {
        watcher = this.watcherArg(options?.watch, operation, path as string);
        const key = kind.watchKey === undefined ? (path as string) : kind.watchKey(this);
        arms = watcher !== undefined && !this.session.watches.coveredByPersistent(kind.watch, key);
      }
      const xid = this.begin();
      const frame = kind.encode(xid, serverPath, arms, arg, options, path as string, this);
      return this.submit(kind.decoder, xid, frame, path, watcher, options, kind.setup);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The next xid. */
  begin(): number {
    return this.session.pipeline.nextXid();
  }

  /**
   * Queues a request whose frame was built with the xid from {@link begin}. A frame over the server's limit
   * (jute.maxbuffer, taken as maxDataLength + 1 KiB) is refused here: the server would drop the connection.
   */
  submit<R>(
    decoder: ReplyDecoder<R>,
    xid: number,
    frame: Buffer,
    path: string | undefined,
    context: unknown,
    options: SubmitOptions | undefined,
    setup?: (request: PendingRequest<R>) => void,
  ): Promise<R> {
    optionsArg(options, decoder.operation, path);
    if (frame.length - 4 > this.maxDataLength + 1024) {
      throw new InvalidArgumentError(
        'request',
        `${frame.length - 4} bytes exceed the server's limit of ${this.maxDataLength + 1024}`,
        { operation: decoder.operation, path },
      );
    }
    const refusal = this.session.refusal(decoder.operation, path);
    const pipeline = this.session.pipeline;
    if (refusal === undefined) return pipeline.submit(decoder, xid, frame, path, context, options, setup);
    return pipeline.submit(decoder, xid, frame, path, context, options, (request) => {
      request.local = { error: refusal };
    });
  }

  /**
   * {@link submit} for a call the server may be too old for: the pipeline checks the connected server's
   * version when the request reaches the head of its queue (see ServerVersionGate.decide in
   * pipeline/version-gate.ts).
   */
  submitGated<R>(
    feature: GatedFeature,
    decoder: ReplyDecoder<R>,
    xid: number,
    frame: Buffer,
    path: string | undefined,
    context: unknown,
    options: SubmitOptions | undefined,
    setup?: (request: PendingRequest<R>) => void,
  ): Promise<R> {
    return this.submit(decoder, xid, frame, path, context, options, (request) => {
      request.feature = feature;
      request.gate = feature;
      setup?.(request);
    });
  }

  /** A watch option: undefined or a function. */
  watcherArg(watch: unknown, operation: string, path: string): Watcher | undefined {
    if (watch === undefined) return undefined;
    if (typeof watch !== 'function') {
      throw new InvalidArgumentError('watch', 'must be a function', { operation, path });
    }
    return watch as Watcher;
  }

  /** Checks the arguments of a create (also inside multi). */
  createArgs(
    path: string,
    data: Data,
    options:
      | { mode?: CreateMode | undefined; acl?: ACL[] | undefined; ttlMs?: number | bigint | undefined }
      | undefined,
    operation: string,
  ): CreateArgs {
    const mode = modeArg(options?.mode, operation, path);
    return {
      serverPath: this.serverPath(path, operation, isSequential(mode)),
      data: dataBytes(data, this.maxDataLength, operation, path),
      acl: aclArg(options?.acl ?? this.session.defaultAcl, operation, path),
      mode,
      ttl: ttlArg(mode, options?.ttlMs, operation, path),
    };
  }
}
