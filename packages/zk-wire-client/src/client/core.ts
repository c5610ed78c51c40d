/**
 * What every public call shares: path mapping into the chroot, argument helpers, and submission to the
 * session's pipeline. Calls take an xid first and build their frame with it, so a request carries no
 * closure besides its promise.
 *
 * Order: a call checks its arguments (a bad one is refused at once, before anything is queued), then takes
 * its xid and its place in the pipeline synchronously, in the caller's tick, with no await in between. A
 * refusal (closed client, expired session) and a server too old for the call are answered in that place
 * too, so that every call settles in call order (docs/contracts.md, "Order").
 */
import type { SubmitOptions } from '../pipeline/pipeline.js';
import { type CreateArgs, isSequential } from '../protocol/create.js';
import type { PendingRequest, ReplyDecoder } from '../protocol/pending.js';
import type { GatedFeature } from '../protocol/server-version.js';
import type { Session } from '../session/session.js';
import type { ACL } from '../util/acl.js';
import { aclArg, DEFAULT_MAX_DATA_LENGTH, dataBytes, modeArg, ttlArg } from '../util/args.js';
import { CheckedPaths } from '../util/checked-paths.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { CreateMode, Data, Watcher } from '../util/types.js';

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

/** The shared plumbing of a client. */
export class ClientCore {
  private readonly checkedPaths: CheckedPaths;

  constructor(
    readonly session: Session,
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
    const refusal = this.session.refusal();
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
