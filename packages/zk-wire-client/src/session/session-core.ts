/**
 * What a session is made of and what it tells. It composes its parts, built once from the checked options
 * (settings.ts): the state machine, the identity (id, password, granted timeout), the hosts, the pipeline and
 * its version gate, the watch tables and the credentials (auth.ts). It is also what the rest of the client
 * reads (id, timeout, hosts, readiness, why a call is refused right now), and the context replies are decoded
 * in and settled against (`SettleContext`, protocol/watch-removal.ts).
 */
import type { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { RequestPipeline } from '../pipeline/pipeline.js';
import { ServerVersionGate } from '../pipeline/version-gate.js';
import type { SettleContext } from '../protocol/watch-removal.js';
import { WatchTables } from '../protocol/watches.js';
import type { Connection, ConnectionOptions } from '../transport/connection.js';
import {
  ClientClosedError,
  ConnectionLossError,
  SessionExpiredError,
  type ZooKeeperError,
} from '../util/errors.js';
import type { Chroot } from '../util/paths.js';
import type {
  ACL,
  ClientOptions,
  ConnectionState,
  HostAddress,
  SessionState,
  WatchEvent,
  Watcher,
} from '../util/types.js';
import { SessionAuth } from './auth.js';
import { ConnectFailures, failureReason } from './connect-failures.js';
import { SessionHosts } from './hosts.js';
import { SessionIdentity } from './identity.js';
import { sessionSettings } from './settings.js';
import { type SessionEventMap, SessionStateMachine } from './states.js';

const CLOSED = { code: 'CLIENTCLOSED' } as const;

/**
 * The parts and the readings of a session, whatever its connections are doing. Its life over its
 * connections is `Session`'s (session.ts), which extends it; the parts are protected for it alone.
 */
export abstract class SessionCore extends EventEmitter<SessionEventMap> implements SettleContext {
  /** The state machine: the session's states and their events. */
  protected readonly machine: SessionStateMachine;
  /** The session's id, password and granted timeout. */
  protected readonly identity: SessionIdentity;
  /** Decides the requests that need a server version (pipeline/version-gate.ts). */
  protected readonly versionGate: ServerVersionGate;
  readonly chroot: Chroot;
  readonly watches = new WatchTables();
  readonly pipeline: RequestPipeline;
  /** Terminal error once expired (without autoRecreateSession) or closed. */
  terminalError: ZooKeeperError | undefined;
  /** The ACL of creates that name none (`defaultAcl`, checked); undefined means open. */
  readonly defaultAcl: ACL[] | undefined;
  /** The bound of a wait for the first connection when the call gives none (`connectWaitMs`; 0 = none). */
  readonly connectWaitMs: number;

  protected readonly hosts: SessionHosts;
  protected connection: Connection | undefined;
  protected ready = false;
  protected readonly requestedTimeoutMs: number;
  protected readonly auth: SessionAuth;
  protected readonly closeTimeoutMs: number | undefined;
  protected closing: Promise<void> | undefined;
  /** Why the last connection ended (or failed to open). */
  lastConnectionError: ZooKeeperError | undefined;
  /** Each host's last failure since the last connection made: what a wait that gives up tells. */
  protected readonly connectFailures = new ConnectFailures();
  /** `failFast`: before the first session, give up once every host failed. */
  protected readonly failFast: boolean;
  /** `ensureChroot`: create the chroot on connect (until done once). */
  protected ensureChroot: boolean;
  /**
   * A session given in the options (a hand-off, or `{ id, password }`) not yet granted by a server: a refusal
   * then ends the client with SessionExpired, never a silent new session (autoRecreateSession or not).
   */
  protected resuming: boolean;

  protected readonly options: ClientOptions;
  protected readonly connectionOptions: ConnectionOptions;

  constructor(clientOptions: ClientOptions) {
    super();
    // The parts are handed the session itself, not closures over it: a closure and its context are ~100
    // bytes each, per session, and thousands of sessions in one process are what this client is built for.
    this.machine = new SessionStateMachine(this);
    const settings = sessionSettings(clientOptions);
    this.options = settings.options;
    this.chroot = settings.chroot;
    this.hosts = new SessionHosts(settings.hosts, settings.options, this, settings.dnsSrv);
    this.requestedTimeoutMs = settings.requestedTimeoutMs;
    this.connectWaitMs = settings.connectWaitMs;
    this.closeTimeoutMs = settings.closeTimeoutMs;
    this.defaultAcl = settings.defaultAcl;
    this.failFast = settings.failFast;
    this.ensureChroot = settings.ensureChroot && settings.chroot.prefix !== '';
    this.connectionOptions = settings.connection;
    this.identity = new SessionIdentity(settings.session);
    this.resuming = settings.session !== undefined;
    this.versionGate = new ServerVersionGate(this, this.options);
    this.pipeline = new RequestPipeline(this, clientOptions.requestTimeoutMs ?? 0, this.versionGate);
    this.auth = new SessionAuth(clientOptions.auth, this.pipeline);
  }

  /** True once the client will never connect again (closed, or expired without autoRecreateSession). */
  get isTerminal(): boolean {
    return this.terminalError !== undefined;
  }

  /** True while a connection is ready for requests. */
  get isReady(): boolean {
    return this.ready;
  }

  /**
   * The error a call of `operation` at `path` should fail with right now, or undefined when it may be
   * queued.
   */
  refusal(operation?: string, path?: string): ZooKeeperError | undefined {
    const terminal = this.terminalError;
    // A closed client refuses each call with an error of its own, whose stack shows the refused call.
    if (this.closing !== undefined && (terminal ?? CLOSED).code === 'CLIENTCLOSED')
      return new ClientClosedError();
    // An expired session's refusal names the call too, as the calls failed at the expiry do.
    if (terminal?.code === 'SESSIONEXPIRED' && operation !== undefined)
      return new SessionExpiredError({ operation, path });
    return terminal;
  }

  /**
   * Why no connection is ready, as the cause of a wait for one that gave up: the hosts that failed since
   * the last connection and why, or else the attempt under way (a host that accepts and never answers has
   * not failed yet).
   */
  connectionProblem(): ConnectionLossError | ZooKeeperError | undefined {
    const failures = this.connectFailures.asError('no server could be reached');
    if (failures !== undefined) return failures;
    if (this.lastConnectionError !== undefined) return this.lastConnectionError;
    const host = this.currentHost;
    if (host === undefined) return undefined;
    return new ConnectionLossError({ cause: new Error(`no answer yet from ${host.host}:${host.port}`) });
  }

  /** {@link connectionProblem} in words, for the message of the error that gives up. */
  describeConnectionProblem(): string | undefined {
    const summary = this.connectFailures.summary();
    if (summary !== undefined) return `no server could be reached; ${summary}`;
    const problem = this.connectionProblem();
    return problem === undefined ? undefined : failureReason(problem);
  }

  /** The host list, in the order connection attempts go through it. */
  get hostList(): readonly HostAddress[] {
    return this.hosts.list;
  }

  get sessionId(): bigint {
    return this.identity.id;
  }

  get password(): Buffer {
    return this.identity.password;
  }

  /** The timeout the server granted (0 while there is no session). */
  get negotiatedTimeoutMs(): number {
    return this.identity.negotiatedTimeoutMs;
  }

  /** The server's version (from `srvr`) once a gated request asked for it. */
  get serverVersion(): string | undefined {
    return this.versionGate.serverVersion;
  }

  /** The connection in use (or being opened), if any. */
  get connectionInUse(): Connection | undefined {
    return this.connection;
  }

  /** The version gate learnt a host's version (or that it cannot be learnt): queued requests move on. */
  serverVersionLearnt(): void {
    this.pipeline.flush();
  }

  /** The host of the current (or last) connection attempt, for the version gate. */
  get currentHost(): HostAddress | undefined {
    return this.hosts.current;
  }

  /** The session state. */
  get state(): SessionState {
    return this.machine.state;
  }

  /** True once a first connection was made (a wait for it is no longer bounded by `connectWaitMs`). */
  get hasConnected(): boolean {
    return this.machine.hasConnected;
  }

  /** An async iterable of connection state events, until the client closes. */
  states(signal?: AbortSignal): AsyncIterable<ConnectionState> {
    return this.machine.states(signal);
  }

  /** Calls each watcher once; a throwing watcher is reported (`watcherError`) and the others still run. */
  dispatch(watchers: Iterable<Watcher>, event: WatchEvent): void {
    for (const watcher of watchers) {
      try {
        watcher(event);
      } catch (error) {
        this.emit('watcherError', error, event);
      }
    }
  }

  /** Queues the watchers' calls for `event` as a microtask, behind the replies that settled before it. */
  dispatchInOrder(watchers: Iterable<Watcher>, event: WatchEvent): void {
    queueMicrotask(() => this.dispatch(watchers, event));
  }
}
