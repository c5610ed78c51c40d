/**
 * The base of the public client: the session it drives, its state and identity (getters, `connected()`,
 * `states()`), credentials (`addAuth`) and closing. The calls are layered on top: reads (reads.ts),
 * then writes and watches ({@link ZooKeeperClient}, client.ts).
 */
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import type { GetDataResult } from '../protocol/get-data.js';
import { planHostListUpdate } from '../session/host-list-update.js';
import { Session } from '../session/session.js';
import { boundedWait } from '../util/bounded-wait.js';
import { type HostAddress, parseConnectString } from '../util/connect-string.js';
import { InvalidArgumentError } from '../util/errors.js';
import { describeError, type Logger, log, loggerArg } from '../util/logger.js';
import type {
  CallOptions,
  ClientOptions,
  ConnectionState,
  SessionState,
  WatchEvent,
  Watcher,
} from '../util/types.js';
import { ClientCore, optionsArg } from './core.js';
import { type EnsembleConfig, formatAddress } from './ensemble-config.js';
import { EnsembleTracker } from './ensemble-tracker.js';
import { logSessionEvents } from './logging.js';
import { waitConnected } from './wait-connected.js';

/** Options of reads that can set a one-shot watch. */
export interface WatchOptions extends CallOptions {
  /** Called once on the next change (armed by the same request as the read). */
  watch?: Watcher | undefined;
}

/** Events of the client (EventEmitter). */
export interface ClientEventMap {
  /** Connection state changes, with Curator's meanings. */
  state: [ConnectionState];
  /** A watcher threw; the client carries on. */
  watcherError: [unknown, WatchEvent];
}

/** The session side of a client; use {@link ZooKeeperClient}. */
export class ClientBase extends EventEmitter<ClientEventMap> implements AsyncDisposable {
  protected readonly session: Session;
  protected readonly core: ClientCore;
  /** The `logger` option (undefined when none): recipes and queues log their swallowed errors there too. */
  readonly logger: Logger | undefined;
  private readonly tracker: EnsembleTracker | undefined;

  /** Use {@link createClient} or {@link connect}. */
  constructor(options: ClientOptions) {
    super();
    const logger = loggerArg(options.logger);
    this.logger = logger;
    this.session = new Session(options);
    if (logger !== undefined) logSessionEvents(this.session, logger);
    this.core = new ClientCore(this.session, options.maxDataLength);
    this.session.on('state', (state) => {
      try {
        this.emit('state', state);
      } catch (error) {
        // A throwing listener is the application's bug: it surfaces as usual, but outside the session's
        // bookkeeping, which must not stop halfway.
        queueMicrotask(() => {
          throw error;
        });
      }
    });
    this.session.on('watcherError', (error, event) => {
      // Nobody listening: say so in the log, or else on stderr (a process warning), rather than lose it.
      if (this.listenerCount('watcherError') === 0 && logger?.error !== undefined) {
        log(
          logger,
          'error',
          () => `zookeeper: a watcher threw on ${event.type} ${event.path}: ${describeError(error)}`,
        );
      } else if (this.listenerCount('watcherError') === 0) {
        process.emitWarning(`A ZooKeeper watcher threw on ${event.type} ${event.path}: ${String(error)}`, {
          code: 'ZKWIRE_WATCHER_ERROR',
        });
      } else {
        this.emit('watcherError', error, event);
      }
    });
    this.tracker = this.trackerFor(options.ensembleTracking);
    this.session.start();
  }

  private trackerFor(ensembleTracking: unknown): EnsembleTracker | undefined {
    if (ensembleTracking === undefined || ensembleTracking === false) return undefined;
    if (ensembleTracking !== true) throw new InvalidArgumentError('ensembleTracking', 'must be a boolean');
    // getConfig is a read (reads.ts, a subclass): every client object has it by the time it connects.
    const reader = this as unknown as { getConfig(options: WatchOptions): Promise<GetDataResult> };
    return new EnsembleTracker({
      readConfig: (watch) => reader.getConfig({ watch }),
      onState: (listener) => {
        this.session.on('state', listener);
        return () => this.session.off('state', listener);
      },
      sessionId: () => this.session.sessionId,
      hosts: () => this.session.hostList,
      replaceHosts: (hosts) => this.replaceServerList(hosts),
    });
  }

  private replaceServerList(hosts: readonly HostAddress[]): boolean {
    const plan = planHostListUpdate(this.session.hostList, hosts, this.session.currentHost);
    this.session.replaceHosts(plan.hosts, plan.move);
    return plan.move;
  }

  /** The session id (0n until the first connection). */
  get sessionId(): bigint {
    return this.session.sessionId;
  }
  /** The session password (16 bytes), to reattach with `options.session`. */
  get sessionPassword(): Uint8Array {
    return Buffer.from(this.session.password);
  }
  /** The session timeout the server granted (0 until connected). */
  get negotiatedTimeoutMs(): number {
    return this.session.negotiatedTimeoutMs;
  }
  /** The session state. */
  get state(): SessionState {
    return this.session.state;
  }
  /** The server version, once a version-gated call asked for it. */
  get serverVersion(): string | undefined {
    return this.session.serverVersion;
  }
  /** The chroot of the connect string ('' for none). */
  get chroot(): string {
    return this.session.chroot.prefix;
  }

  /** The servers the client connects to (`host:port`), in the order connection attempts take them. */
  get serverList(): string[] {
    return this.session.hostList.map(formatAddress);
  }

  /** With `ensembleTracking`: the last ensemble configuration the client applied (undefined before). */
  get ensembleConfig(): EnsembleConfig | undefined {
    return this.tracker?.config;
  }

  /**
   * Replaces the servers the client connects to (Java's `ZooKeeper.updateServerList`), for applications
   * that follow the ensemble themselves. The session moves to another server only when rebalancing says
   * so: always when its server is no longer listed, with the probability that evens the load when servers
   * were added (a move closes the connection: calls in flight fail with ConnectionLoss, the session stays).
   * A chroot in `connectString` must be the client's own. Returns whether this client moves.
   */
  updateServerList(connectString: string): boolean {
    const parsed = parseConnectString(connectString);
    if (parsed.chroot.prefix !== '' && parsed.chroot.prefix !== this.session.chroot.prefix) {
      throw new InvalidArgumentError('connectString', `chroot ${parsed.chroot.prefix} is not the client's`, {
        operation: 'updateServerList',
      });
    }
    if (this.session.isTerminal) return false;
    return this.replaceServerList(parsed.hosts);
  }

  /** The server path of a client path (the chroot added), e.g. to compare with paths other clients see. */
  toServerPath(path: string): string {
    return this.core.serverPath(path, 'toServerPath');
  }
  /** The client path of a server path (the chroot removed; paths outside it come back unchanged). */
  toClientPath(serverPath: string): string {
    return this.session.chroot.toClient(serverPath);
  }

  /** Resolves once connected (r/w, or read-only when allowed); rejects when closed or expired. */
  connected(options?: CallOptions): Promise<void> {
    try {
      optionsArg(options, 'connected', undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    return waitConnected(this.session, options);
  }

  // ---- session ----------------------------------------------------------------------------------------

  /**
   * Adds credentials to this connection and every later one (`digest` with `user:password`), and resolves
   * when the server accepted them. An abort or `timeoutMs` (OperationTimeoutError) stops the wait only: the
   * credentials stay saved. A close, an expiry or a lost connection before the answer rejects the call.
   */
  addAuth(scheme: string, credentials: Uint8Array | string, options?: CallOptions): Promise<void> {
    if (typeof scheme !== 'string' || scheme === '') {
      return Promise.reject(
        new InvalidArgumentError('scheme', 'must be a non-empty string', { operation: 'addAuth' }),
      );
    }
    if (typeof credentials !== 'string' && !(credentials instanceof Uint8Array)) {
      return Promise.reject(
        new InvalidArgumentError('credentials', 'must be a string or bytes', { operation: 'addAuth' }),
      );
    }
    try {
      optionsArg(options, 'addAuth', undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason);
    return boundedWait(this.session.addAuth(scheme, credentials), 'addAuth', options);
  }

  /** Connection state events as an async iterable (ends when the client closes). */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<ConnectionState> {
    return this.session.states(options.signal);
  }

  /** Sends closeSession, waits for its reply, and ends the client. Idempotent. */
  close(): Promise<void> {
    this.tracker?.close();
    return this.session.close();
  }

  /** `await using client = await connect(...)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
