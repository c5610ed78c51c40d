/**
 * What the client's parts use of their session: the calls ({@link CallSession}, for ClientCore and the call
 * files: the pipeline they take their place in, the chroot and watch tables their replies settle against,
 * whether the session can take a call, its state events), and the rest of the facade ({@link ClientSession}:
 * identity, hosts, auth, the wait for a connection). The session (session/session.ts) is both; naming only
 * these keeps the client's parts below the session's files: only client.ts, which makes the session, imports
 * session/session.ts.
 */
import type { Buffer } from 'node:buffer';
import type { EventEmitter } from 'node:events';
import type { PendingRequest, SubmitOptions } from '../protocol/pending.js';
import type { ReplyDecoder } from '../protocol/reply-decoder.js';
import type { SettleContext } from '../protocol/watch-removal.js';
import type { SessionEventMap } from '../session/states.js';
import type { ConnectionLossError, ZooKeeperError } from '../util/errors.js';
import type { ACL, HostAddress, SessionState } from '../util/types.js';

/**
 * What the calls use of the session's pipeline (pipeline/pipeline.ts `RequestPipeline`), named here so that
 * the client's parts stand on the request record (protocol/pending.ts) rather than on the pipeline itself.
 */
export interface CallPipeline {
  /** The next xid. */
  nextXid(): number;
  /** Queues a request whose frame holds `xid` and returns its promise (see RequestPipeline.submit). */
  submit<R>(
    decoder: ReplyDecoder<R>,
    xid: number,
    frame: Buffer,
    path: string | undefined,
    requestContext: unknown,
    options: SubmitOptions | undefined,
    setup?: (request: PendingRequest<R>) => void,
  ): Promise<R>;
  /** Whether a request queued or on the wire will register a watcher at `path` when it settles. */
  armsWatchInFlight(path: string): boolean;
}

/** The session as the calls see it. */
export interface CallSession extends SettleContext, Pick<EventEmitter<SessionEventMap>, 'on' | 'off'> {
  readonly pipeline: CallPipeline;
  /** The ACL of creates that name none; undefined means open. */
  readonly defaultAcl: ACL[] | undefined;
  /** True while a connection is ready for requests. */
  readonly isReady: boolean;
  /** The error a call should fail with right now (closed, expired, ...), or undefined when it may be queued. */
  refusal(operation?: string, path?: string): ZooKeeperError | undefined;
}

/** The session as the client's facade sees it (client.ts hands its Session to its parts as this). */
export interface ClientSession extends CallSession {
  readonly sessionId: bigint;
  readonly negotiatedTimeoutMs: number;
  readonly state: SessionState;
  /** True once a first connection was made. */
  readonly hasConnected: boolean;
  /** True once the client will never connect again (closed, or expired without autoRecreateSession). */
  readonly isTerminal: boolean;
  /** The bound of a wait for the first connection when the call gives none (`connectWaitMs`; 0 = none). */
  readonly connectWaitMs: number;
  /** The host list, in the order connection attempts go through it. */
  readonly hostList: readonly HostAddress[];
  /** The host of the current (or last) connection attempt. */
  readonly currentHost: HostAddress | undefined;
  /** Replaces the host list; with `move`, leaves the connection in use. */
  replaceHosts(hosts: readonly HostAddress[], move: boolean): void;
  /** Sends credentials now and on every later connection; resolves when the server accepted them. */
  addAuth(scheme: string, credentials: Uint8Array | string): Promise<void>;
  /** Why no connection is ready, as the cause of a wait for one that gave up. */
  connectionProblem(): ConnectionLossError | ZooKeeperError | undefined;
  /** {@link connectionProblem} in words. */
  describeConnectionProblem(): string | undefined;
}
