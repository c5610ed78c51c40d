/**
 * What every public call shares: the refusal check, path mapping into the chroot, argument helpers, the
 * version gate, and submission to the session's pipeline. Calls take an xid first and build their frame
 * with it, so a request carries no closure besides its promise.
 */
import type { ACL } from './acl.js';
import { aclArg, DEFAULT_MAX_DATA_LENGTH, dataBytes, modeArg, ttlArg } from './args.js';
import { InvalidArgumentError, UnsupportedByServerError, ZooKeeperError } from './errors.js';
import { type CreateArgs, isSequential } from './ops/create.js';
import { validatePath } from './paths.js';
import type { ReplyDecoder } from './pending.js';
import type { SubmitOptions } from './pipeline.js';
import { atLeast, FEATURE_SINCE } from './server-version.js';
import type { Session } from './session.js';
import type { CreateMode, Data, Watcher } from './types.js';

/** The shared plumbing of a client. */
export class ClientCore {
  constructor(
    readonly session: Session,
    readonly maxDataLength: number = DEFAULT_MAX_DATA_LENGTH,
  ) {}

  /** Validates a client path and returns the server path. Throws InvalidArgumentError. */
  serverPath(path: string, operation: string, sequential = false): string {
    validatePath(path, { sequential, operation });
    return this.session.chroot.toServer(path);
  }

  /** The next xid, or throws the error calls fail with now (closed, expired). */
  begin(): number {
    const refusal = this.session.refusal();
    if (refusal) throw refusal;
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
  ): Promise<R> {
    if (frame.length - 4 > this.maxDataLength + 1024) {
      throw new InvalidArgumentError(
        'request',
        `${frame.length - 4} bytes exceed the server's limit of ${this.maxDataLength + 1024}`,
        { operation: decoder.operation, path },
      );
    }
    return this.session.pipeline.submit(decoder, xid, frame, path, context, options);
  }

  /** A watch option: undefined or a function. */
  watcherArg(watch: unknown, operation: string, path: string): Watcher | undefined {
    if (watch === undefined) return undefined;
    if (typeof watch !== 'function') {
      throw new InvalidArgumentError('watch', 'must be a function', { operation, path });
    }
    return watch as Watcher;
  }

  /**
   * Runs a call the server may be too old for. A server known to be too old (from `srvr`) fails it with
   * UnsupportedByServerError before anything is sent. When the version is unknown (srvr not whitelisted, probe
   * failed) the request goes out, and an old server's answer to an opcode it lacks, -6 Unimplemented and a
   * closed connection (wire-protocol.md §4.1), becomes UnsupportedByServerError too: only the connection is
   * lost, and the session reconnects as after any connection loss.
   */
  async gated<R>(operation: keyof typeof FEATURE_SINCE, send: () => Promise<R>): Promise<R> {
    const required = FEATURE_SINCE[operation];
    const address = this.session.currentHost;
    const version = address && (await this.session.versionOf(address));
    if (version !== undefined) {
      this.session.serverVersion = version;
      if (!atLeast(version, required)) throw new UnsupportedByServerError(required, version, { operation });
    }
    try {
      return await send();
    } catch (error) {
      if (ZooKeeperError.isInstance(error) && error.code === 'UNIMPLEMENTED') {
        throw new UnsupportedByServerError(required, this.session.serverVersion, { operation, cause: error });
      }
      throw error;
    }
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
