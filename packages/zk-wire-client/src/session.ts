/**
 * The session: its state machine (connecting, connected, read-only, suspended, expired, closed), the host
 * list (shuffled once), the handshake on every connection, reconnects with the session id, password and last
 * zxid, and what follows each handshake in order: SASL, saved auth, watch restore, then queued requests
 * (wire-protocol.md §2.6, §7).
 *
 * Frames are routed here: special xids (-1 notification, -2 ping, -4 auth, SASL in progress) before the
 * pending FIFO, which the pipeline checks against the head.
 */
import { decodeConnectResponse, encodeConnectRequest, records, Xid } from '@zkwire/jute-codec';
import { type HostAddress, parseConnectString, shuffled } from './connect-string.js';
import { Connection, type ConnectionHandler } from './connection.js';
import {
  ClientClosedError,
  ConnectionLossError,
  InvalidArgumentError,
  ProtocolError,
  SessionExpiredError,
  UnsupportedByServerError,
  type ZooKeeperError,
} from './errors.js';
import { closeSessionReply, encodeCloseSession } from './ops/close-session.js';
import { batchWatches, encodeSetWatches, setWatchesReply } from './ops/set-watches.js';
import type { Chroot } from './paths.js';
import { RequestPipeline } from './pipeline.js';
import { ReadOnlyProbe } from './read-only-probe.js';
import { concealCredentials, validateSaslOptions, validateTlsOption } from './security/index.js';
import { atLeast, probeServerVersion } from './server-version.js';
import { SessionAuth } from './session-auth.js';
import { SessionStates } from './session-states.js';
import type { ClientOptions, WatchEvent, Watcher } from './types.js';
import { WatchTables } from './watches.js';

const EVENT_TYPES: Record<number, WatchEvent['type'] | undefined> = {
  1: 'created',
  2: 'deleted',
  3: 'dataChanged',
  4: 'childrenChanged',
};

/** One ZooKeeper session over a sequence of connections. */
export class Session extends SessionStates {
  sessionId = 0n;
  password: Buffer = Buffer.alloc(16);
  negotiatedTimeoutMs = 0;
  /** The server's version (from `srvr`) once a gated feature asked for it. */
  serverVersion: string | undefined;
  readonly chroot: Chroot;
  readonly watches = new WatchTables();
  readonly pipeline: RequestPipeline;
  /** Terminal error once expired (without autoRecreateSession) or closed. */
  terminalError: ZooKeeperError | undefined;

  private readonly hosts: HostAddress[];
  private hostIndex = -1;
  private connection: Connection | undefined;
  private handshaken = false;
  private ready = false;
  private readonly requestedTimeoutMs: number;
  private seenReadWriteServer: boolean;
  private readonly auth: SessionAuth;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readOnlyProbe: ReadOnlyProbe | undefined;
  private disconnectedAt = 0;
  /** ms timestamp since which calls have waited for a first session (set at start and after an expiry). */
  private waitingSince = Date.now();
  private closing: Promise<void> | undefined;
  private readonly versionByHost = new Map<string, Promise<string | undefined>>();
  private readonly handler: ConnectionHandler;
  /** Why the last connection ended (or failed to open): the cause of a timed-out `connected()`. */
  lastConnectionError: ZooKeeperError | undefined;

  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    super();
    // Credentials stay out of inspect/log/JSON output of the client's objects.
    this.options = concealCredentials(options);
    const parsed = parseConnectString(options.connectString);
    this.chroot = parsed.chroot;
    this.hosts = shuffled(parsed.hosts);
    const timeout = options.sessionTimeoutMs ?? 30_000;
    if (!Number.isInteger(timeout) || timeout <= 0) {
      throw new InvalidArgumentError(
        'sessionTimeoutMs',
        `must be a positive integer, got ${String(timeout)}`,
      );
    }
    this.requestedTimeoutMs = timeout;
    validateTlsOption(options.tls);
    validateSaslOptions(options.sasl);
    if (options.session) {
      if (options.session.password.length !== 16) {
        throw new InvalidArgumentError('session.password', 'must be 16 bytes');
      }
      this.sessionId = options.session.id;
      this.password = Buffer.from(options.session.password);
    }
    // A handle built with an explicit session counts as having seen a r/w server (§2.1).
    this.seenReadWriteServer = options.session !== undefined;
    this.pipeline = new RequestPipeline(this, options.requestTimeoutMs ?? 0);
    this.auth = new SessionAuth(options.auth, () => this.pipeline.nextXid());
    this.handler = {
      onOpen: (c) => this.onOpen(c),
      onFrame: (c, payload) => this.onFrame(c, payload),
      onDrain: (c) => c === this.connection && this.ready && this.pipeline.flush(),
      onClose: (c, error) => this.onConnectionClosed(c, error),
    };
  }

  /** Starts connecting. */
  start(): void {
    this.connectNext();
  }

  /** True once the client will never connect again (closed, or expired without autoRecreateSession). */
  get isTerminal(): boolean {
    return this.terminalError !== undefined;
  }

  /** True while a connection is ready for requests. */
  get isReady(): boolean {
    return this.ready;
  }

  /** The error calls should fail with right now, or undefined when they may be queued. */
  refusal(): ZooKeeperError | undefined {
    if (this.closing !== undefined && this.terminalError === undefined) return new ClientClosedError();
    return this.terminalError;
  }

  // ---- connecting -----------------------------------------------------------------------------------

  private connectNext(): void {
    this.reconnectTimer = undefined;
    if (this.terminalError !== undefined) return;
    this.hostIndex = (this.hostIndex + 1) % this.hosts.length;
    const address = this.hosts[this.hostIndex]!;
    this.handshaken = false;
    this.connection = Connection.open(address, this.options, this.handler);
    // Java's connectTimeout (T / hosts): it bounds the TCP connect, the TLS handshake and the ConnectResponse.
    const timeout = this.negotiatedTimeoutMs || this.requestedTimeoutMs;
    this.connection.startTimer(Math.max(1000, Math.floor(timeout / this.hosts.length)));
  }

  private onOpen(connection: Connection): void {
    if (connection !== this.connection) return;
    // Until the ConnectResponse nothing else is written: an expired session gets its answer and an
    // immediate close, which a concurrent write could turn into a reset that loses the answer (§2.6).
    connection.write(
      encodeConnectRequest({
        protocolVersion: 0,
        lastZxidSeen: this.pipeline.lastZxid,
        timeOut: this.requestedTimeoutMs,
        sessionId: this.seenReadWriteServer ? this.sessionId : 0n,
        passwd: this.seenReadWriteServer ? this.password : Buffer.alloc(16),
        readOnly: this.options.canBeReadOnly === true,
      }),
    );
  }

  private scheduleReconnect(): void {
    if (this.terminalError !== undefined || this.reconnectTimer !== undefined) return;
    if (this.checkClientSideExpiry()) return;
    this.failCallsWaitingTooLong();
    // Java: a random 0-999 ms before each attempt but the first; 1 s more after a full round of hosts.
    const fullRound = (this.hostIndex + 1) % this.hosts.length === 0;
    const delay = Math.floor(Math.random() * 1000) + (fullRound ? 1000 : 0);
    this.reconnectTimer = setTimeout(() => this.connectNext(), delay);
  }

  /**
   * With no session yet (first connection, or a new one after expiry) no server may ever answer: calls that
   * waited for a whole session timeout fail with ConnectionLoss instead of hanging, and connecting goes on
   * (Curator fails them after its connection timeout the same way).
   */
  private failCallsWaitingTooLong(): void {
    if (this.negotiatedTimeoutMs !== 0 || Date.now() - this.waitingSince < this.requestedTimeoutMs) return;
    this.waitingSince = Date.now();
    this.pipeline.failAll(
      (r) =>
        new ConnectionLossError({
          path: r.path,
          operation: r.decoder.operation,
          cause: new Error(`no server answered within ${this.requestedTimeoutMs} ms`),
        }),
      true,
    );
  }

  /** Curator's rule: disconnected for longer than the negotiated timeout means the session is lost. */
  private checkClientSideExpiry(): boolean {
    if (this.sessionId === 0n || this.negotiatedTimeoutMs === 0 || this.state !== 'suspended') return false;
    if (Date.now() - this.disconnectedAt < this.negotiatedTimeoutMs) return false;
    this.expire();
    return true;
  }

  // ---- frames ---------------------------------------------------------------------------------------

  private onFrame(connection: Connection, payload: Buffer): void {
    if (connection !== this.connection) return;
    if (!this.handshaken) {
      this.onConnectResponse(connection, payload);
      return;
    }
    if (payload.length < 16)
      throw new ProtocolError(`reply of ${payload.length} bytes is shorter than its header`);
    const xid = payload.readInt32BE(0);
    if (xid === Xid.NOTIFICATION) this.onNotification(payload);
    else if (xid === Xid.PING) return;
    else if (xid === Xid.AUTH) this.onAuthReply(payload.readInt32BE(12));
    else if (this.auth.saslInProgress) this.auth.onSaslReply(payload);
    else this.pipeline.handleReply(payload, xid);
  }

  private onConnectResponse(connection: Connection, payload: Buffer): void {
    const response = decodeConnectResponse(payload);
    if (response.timeOut <= 0) {
      // The session is unknown, expired or the password was wrong: the server closes the connection now.
      this.connection = undefined;
      connection.close(new SessionExpiredError());
      this.expire();
      return;
    }
    this.handshaken = true;
    // A session handed out by a read-only server is not valid elsewhere (§2.1): moving on from it starts a
    // new session, and the watches carry over to it, as in Java.
    const sameSession =
      (this.sessionId !== 0n && response.sessionId === this.sessionId) || !this.seenReadWriteServer;
    if (!sameSession) this.watches.clear();
    this.sessionId = response.sessionId;
    this.password = Buffer.from(response.passwd ?? Buffer.alloc(16));
    this.negotiatedTimeoutMs = response.timeOut;
    if (!response.readOnly) this.seenReadWriteServer = true;
    connection.setConnected(Math.floor((response.timeOut * 2) / 3));
    void this.afterHandshake(connection, response.readOnly, sameSession);
  }

  /** SASL, then saved auth, then watch restore, then the queued requests (§2.6). */
  private async afterHandshake(
    connection: Connection,
    readOnly: boolean,
    sameSession: boolean,
  ): Promise<void> {
    if (this.options.sasl) {
      try {
        await this.auth.authenticate(this.options.sasl, connection, () => connection === this.connection);
      } catch (error) {
        if (connection === this.connection) this.terminate(error as ZooKeeperError);
        return;
      }
      if (connection !== this.connection) return;
    }
    this.auth.sendAll(connection);
    if (sameSession && !this.watches.isEmpty) this.restoreWatches(connection);
    this.ready = true;
    this.pipeline.attach(connection);
    this.enterConnected(readOnly);
    if (readOnly) this.probeForReadWrite(connection);
  }

  /** On a read-only server: look for a read-write one, and move there once found (§2.7). */
  private probeForReadWrite(connection: Connection): void {
    this.readOnlyProbe?.stop();
    this.readOnlyProbe = new ReadOnlyProbe({
      hosts: this.hosts,
      current: this.hostIndex,
      connect: this.options,
      onReadWrite: (index) => {
        if (connection !== this.connection) return;
        // connectNext takes the host after hostIndex.
        this.hostIndex = index - 1;
        connection.close(new ConnectionLossError({ cause: new Error('a read-write server was found') }));
      },
    });
    this.readOnlyProbe.start();
  }

  private restoreWatches(connection: Connection): void {
    const snapshot = this.watches.snapshot();
    const toServer = (list: string[]) => list.map((p) => this.chroot.toServer(p));
    const batches = batchWatches({
      data: toServer(snapshot.data),
      exist: toServer(snapshot.exist),
      child: toServer(snapshot.child),
      persistent: toServer(snapshot.persistent),
      persistentRecursive: toServer(snapshot.persistentRecursive),
    });
    for (const batch of batches) {
      const xid = this.pipeline.nextXid();
      const frame = encodeSetWatches(xid, this.pipeline.lastZxid, batch);
      // A failed restore shows as missing events; the connection itself carries on (Java does the same).
      this.pipeline.writeNow(connection, setWatchesReply, xid, frame).catch(() => {});
    }
  }

  private onAuthReply(err: number): void {
    const refused = this.auth.onAuthReply(err);
    // The server closes the connection right after a refusal; closing it here first keeps later calls off
    // a connection that is already dead.
    if (refused) this.connection?.close(new ConnectionLossError({ cause: refused }));
  }

  private onNotification(payload: Buffer): void {
    const { value } = records.WatcherEvent.decode(payload, 16, payload.length);
    const type = EVENT_TYPES[value.type];
    if (type === undefined) return;
    const event: WatchEvent = { type, path: this.chroot.toClient(value.path ?? '/') };
    const watchers = this.watches.collect(event);
    // Dispatched as a microtask: after the replies read before this event have resolved their promises,
    // before those read after it, and never inside the socket's data handler.
    if (watchers.size > 0) queueMicrotask(() => this.dispatch(watchers, event));
  }

  /** Calls each watcher once; a throwing watcher is reported and the others still run. */
  dispatch(watchers: Iterable<Watcher>, event: WatchEvent): void {
    for (const watcher of watchers) {
      try {
        watcher(event);
      } catch (error) {
        this.emit('watcherError', error, event);
      }
    }
  }

  // ---- auth -----------------------------------------------------------------------------------------

  /** Adds a credential: sent now when connected, and on every later connection. */
  addAuth(scheme: string, credentials: Uint8Array | string): Promise<void> {
    const refusal = this.refusal();
    if (refusal) return Promise.reject(refusal);
    return this.auth.add(scheme, credentials, this.ready ? this.connection : undefined);
  }

  private onConnectionClosed(connection: Connection, error: ZooKeeperError): void {
    if (connection !== this.connection) return;
    this.readOnlyProbe?.stop();
    this.readOnlyProbe = undefined;
    this.lastConnectionError = error;
    if (error.code === 'TLSERROR') {
      // A certificate or handshake failure will not heal by retrying: fail the client with it.
      this.connection = undefined;
      this.terminate(error);
      return;
    }
    this.connection = undefined;
    const wasReady = this.ready;
    this.ready = false;
    this.handshaken = false;
    this.pipeline.detach();
    const cause = error.cause ?? error;
    this.pipeline.failAll(
      (r) => new ConnectionLossError({ path: r.path, operation: r.decoder.operation, cause }),
      wasReady,
    );
    this.auth.connectionLost(cause);
    if (this.closing !== undefined || this.terminalError !== undefined) return;
    if (this.state === 'connected' || this.state === 'read-only') {
      this.disconnectedAt = connection.lastReceived;
      this.enterSuspended();
    }
    this.scheduleReconnect();
  }

  /** The session is gone: every call fails SessionExpired, or a new session starts (autoRecreateSession). */
  private expire(): void {
    this.setState('expired');
    this.emitConnectionState('lost');
    const makeError = (r: { path: string | undefined; decoder: { operation: string } }) =>
      new SessionExpiredError({ path: r.path, operation: r.decoder.operation });
    // Java tells every watcher with the Expired state: each armed one-shot watcher gets a last event,
    // `sessionExpired` at its path, since no change will ever fire it. Persistent watchers learn it from the
    // `lost` state (watchPersistent's loop ends with SessionExpiredError).
    for (const [path, watchers] of this.watches.oneShotByPath()) {
      queueMicrotask(() => this.dispatch(watchers, { type: 'sessionExpired', path }));
    }
    this.watches.clear();
    // The credentials stay saved (a recreated session sends them again); calls waiting on them end here.
    this.auth.rejectAll(() => new SessionExpiredError({ operation: 'addAuth' }));
    if (this.options.autoRecreateSession) {
      this.pipeline.failAll(makeError, false);
      this.waitingSince = Date.now();
      this.sessionId = 0n;
      this.password = Buffer.alloc(16);
      this.negotiatedTimeoutMs = 0;
      this.everConnected = true;
      this.setState('connecting');
      this.scheduleReconnect();
      return;
    }
    this.terminalError = new SessionExpiredError();
    this.pipeline.failAll(makeError, true);
    this.pipeline.dispose();
    this.endStateQueues();
  }

  /** Ends everything with `error` (closed client, failed authentication). */
  private terminate(error: ZooKeeperError): void {
    // A close after expiry reports the close: it is what the caller did last.
    if (error.code === 'CLIENTCLOSED') this.terminalError = error;
    else this.terminalError ??= error;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.readOnlyProbe?.stop();
    this.readOnlyProbe = undefined;
    const connection = this.connection;
    this.connection = undefined;
    this.ready = false;
    this.pipeline.detach();
    connection?.close(error);
    const terminal = this.terminalError;
    // The connection's close handler ignores a connection already let go: settle its waiters here.
    this.auth.rejectAll((operation) =>
      terminal.code === 'CLIENTCLOSED' ? new ClientClosedError({ operation }) : terminal,
    );
    this.pipeline.failAll(
      (r) =>
        terminal.code === 'CLIENTCLOSED'
          ? new ClientClosedError({ path: r.path, operation: r.decoder.operation })
          : terminal,
      true,
    );
    this.pipeline.dispose();
    this.setState('closed');
    this.endStateQueues();
  }

  /** Sends closeSession and waits for its reply (when connected), then ends everything. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    const connection = this.connection;
    if (this.ready && connection !== undefined && this.terminalError === undefined) {
      const xid = this.pipeline.nextXid();
      try {
        await this.pipeline.submit(closeSessionReply, xid, encodeCloseSession(xid), undefined, undefined, {
          internal: true,
          timeoutMs: Math.max(1000, this.negotiatedTimeoutMs),
        });
      } catch {
        // The session will expire on the server; nothing more to do.
      }
    }
    this.terminate(new ClientClosedError());
  }

  // ---- server version -------------------------------------------------------------------------------

  /**
   * Fails with UnsupportedByServerError when the connected server is known to be older than `required`.
   * The version is asked once per host; when it cannot be learnt, the call goes ahead (and ClientCore.gated
   * turns the old server's -6 Unimplemented into UnsupportedByServerError).
   */
  async requireVersion(operation: string, required: string): Promise<void> {
    const address = this.hosts[this.hostIndex];
    if (address === undefined) return;
    const key = `${address.host}:${address.port}`;
    let probe = this.versionByHost.get(key);
    if (probe === undefined) {
      probe = probeServerVersion(address, this.options);
      this.versionByHost.set(key, probe);
    }
    const version = await probe;
    if (version === undefined) return;
    this.serverVersion = version;
    if (!atLeast(version, required)) throw new UnsupportedByServerError(required, version, { operation });
  }
}
