/**
 * The session over a sequence of connections: connecting, the handshake on every connection, reconnects
 * with the session id, password and last zxid, and what follows each handshake in order: SASL, saved auth,
 * watch restore, then queued requests (wire-protocol.md §2.6, §7). Then loss, client-side expiry, close and
 * detach, each moving the state machine (states.ts). Its parts and what the rest of the client reads of it
 * are SessionCore's (session-core.ts), which it extends.
 *
 * Frames are routed here: special xids (-1 notification, -2 ping, -4 auth, SASL in progress) before the
 * pending FIFO, which the pipeline checks against the head.
 */
import { Buffer } from 'node:buffer';
import { decodeConnectResponse, Xid } from '@zkwire/jute-codec';
import { int32At } from '@zkwire/jute-codec/internal';
import { registerBuiltInSaslMechanisms } from '../security/built-in-mechanisms.js';
import { Connection, type ConnectionHandler } from '../transport/connection.js';
import { publishConnect } from '../util/diagnostics.js';
import {
  type ClientClosedError,
  ConnectionLossError,
  ProtocolError,
  SessionExpiredError,
  type ZooKeeperError,
} from '../util/errors.js';
import type { HostAddress } from '../util/types.js';
import { ensureChroot } from './chroot.js';
import { closedByClient, closeSessionWithin, failWaitersAtEnd } from './close.js';
import { settleCallsWithin } from './detach.js';
import { NoSessionError } from './handoff.js';
import { SessionCore } from './session-core.js';
import { connectTimeoutMs, reconnectDelayMs, SessionTimer } from './timers.js';
import { deliverNotification, expiryEvents, restoreWatches } from './watches.js';

/**
 * One ZooKeeper session over a sequence of connections. It is its connections' handler itself (methods,
 * not closures built per session).
 */
export class Session extends SessionCore implements ConnectionHandler {
  private handshaken = false;
  /** The pause before the next connection attempt (reconnectDelayMs). */
  private readonly reconnectTimer = new SessionTimer(true);
  /**
   * Client-side expiry, Curator's rule: suspended for longer than the negotiated timeout means the session is
   * lost. On its own timer, so that `lost` comes on time whatever the connect attempts are doing (a
   * black-holed host holds each attempt for a whole connect timeout). Counted from the suspension, as
   * Curator's ConnectionStateManager does (startOfSuspendedEpoch).
   */
  private readonly expiryTimer = new SessionTimer(false);
  /** ms timestamp since which calls have waited for a first session (set at start and after an expiry). */
  private waitingSince = Date.now();

  /** Starts connecting: at once, or after the first SRV lookup of a `dns-srv://` connect string (hosts.ts). */
  start(): void {
    if (this.hosts.awaitsDiscovery)
      this.hosts.discover(
        () => this.connectNext(),
        (error) => this.terminate(error),
      );
    else this.connectNext();
  }

  // ---- connecting -----------------------------------------------------------------------------------

  private connectNext(): void {
    if (this.terminalError !== undefined) return;
    const address = this.hosts.next();
    publishConnect(() => ({
      host: address.host,
      port: address.port,
      sessionId: this.sessionId,
      reason: this.lastConnectionError?.code,
      reasonMessage: this.lastConnectionError?.message,
    }));
    this.emit('connection', { phase: 'connecting', host: address.host, port: address.port });
    this.handshaken = false;
    this.connection = Connection.open(address, this.connectionOptions, this);
    const timeout = this.negotiatedTimeoutMs || this.requestedTimeoutMs;
    this.connection.startTimer(connectTimeoutMs(timeout, this.hosts.list.length));
  }

  // ---- ConnectionHandler: what each connection tells its session ------------------------------------

  /** Socket connected: the ConnectRequest goes out. */
  onOpen(connection: Connection): void {
    if (connection !== this.connection) return;
    // Until the ConnectResponse nothing else is written: an expired session gets its answer and an
    // immediate close, which a concurrent write could turn into a reset that loses the answer (§2.6).
    const canBeReadOnly = this.options.canBeReadOnly === true;
    connection.write(
      this.identity.connectRequest(this.pipeline.lastZxid, this.requestedTimeoutMs, canBeReadOnly),
    );
  }

  /** The socket takes more after a write that filled its buffer. */
  onDrain(connection: Connection): void {
    if (connection === this.connection && this.ready) this.pipeline.flush();
  }

  /** Requests written and not yet answered (read pacing). */
  awaitingReplies(): number {
    return this.pipeline.awaitingReplies;
  }

  private scheduleReconnect(): void {
    if (this.terminalError !== undefined || this.reconnectTimer.pending) return;
    this.failCallsWaitingTooLong();
    const fullRound = this.hosts.takeFullRound();
    this.reconnectTimer.start(reconnectDelayMs(fullRound), () => this.connectNext());
  }

  /**
   * With no session yet (first connection, or a new one after expiry) no server may ever answer: calls that
   * waited for a whole session timeout fail with ConnectionLoss instead of hanging, and connecting goes on
   * (Curator fails them after its connection timeout the same way).
   */
  private failCallsWaitingTooLong(): void {
    if (this.negotiatedTimeoutMs !== 0 || Date.now() - this.waitingSince < this.requestedTimeoutMs) return;
    this.waitingSince = Date.now();
    const cause = new Error(`no server answered within ${this.requestedTimeoutMs} ms`);
    this.pipeline.failAllWithConnectionLoss(cause, true);
  }

  /** The session timeout passed without a connection: the attempt under way is dropped, the session lost. */
  private expireClientSide(): void {
    if (this.state !== 'suspended' || this.terminalError !== undefined) return;
    this.reconnectTimer.stop();
    // The attempt would present the old session: let it go (its close handler ignores a connection let go).
    const attempt = this.connection;
    this.connection = undefined;
    this.handshaken = false;
    const cause = new Error(`no connection for the session timeout (${this.negotiatedTimeoutMs} ms)`);
    attempt?.close(new ConnectionLossError({ cause }));
    this.expire();
  }

  // ---- frames ---------------------------------------------------------------------------------------

  /** One frame from `connection`: the ConnectResponse first, then replies and events. */
  onFrame(connection: Connection, payload: Buffer): void {
    if (connection !== this.connection) return;
    if (!this.handshaken) {
      this.onConnectResponse(connection, payload);
      return;
    }
    if (payload.length < 16)
      throw new ProtocolError(`reply of ${payload.length} bytes is shorter than its header`);
    const xid = int32At(payload, 0);
    if (xid === Xid.NOTIFICATION) deliverNotification(payload, this.watches, this.chroot, this);
    else if (xid === Xid.PING) return;
    else if (xid === Xid.AUTH) this.onAuthReply(int32At(payload, 12));
    else if (this.auth.saslInProgress) this.auth.onSaslReply(payload);
    else this.pipeline.handleReply(payload, xid);
  }

  private onConnectResponse(connection: Connection, payload: Buffer): void {
    const response = decodeConnectResponse(payload);
    if (response.timeOut <= 0) {
      // The session is unknown, expired or the password was wrong: the server closes the connection now.
      this.connection = undefined;
      this.lastConnectionError = new SessionExpiredError();
      connection.close(this.lastConnectionError);
      this.expire(!this.resuming);
      return;
    }
    // No server hands out session 0: taking it would leave a session that can never be reattached or expire.
    if (response.sessionId === 0n) throw new ProtocolError('ConnectResponse with session id 0');
    this.handshaken = true;
    this.expiryTimer.stop();
    const sameSession = this.identity.accept(response);
    this.resuming = false;
    if (!sameSession) this.watches.clear();
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
        registerBuiltInSaslMechanisms();
        await this.auth.authenticate(this.options.sasl, connection, () => connection === this.connection);
      } catch (error) {
        if (connection === this.connection) this.terminate(error as ZooKeeperError);
        return;
      }
      if (connection !== this.connection) return;
    }
    this.auth.sendAll(connection);
    if (sameSession && !this.watches.isEmpty)
      restoreWatches(connection, this.watches, this.chroot, this.pipeline);
    if (this.ensureChroot) {
      // Until made once: a connection lost before the answer makes the next one try again.
      ensureChroot(connection, this.chroot, this.defaultAcl, this.pipeline).then(
        () => void (this.ensureChroot = false),
        () => {},
      );
    }
    this.connectFailures.clear();
    this.ready = true;
    this.pipeline.attach(connection);
    this.machine.enterConnected(readOnly);
    if (readOnly) this.hosts.searchReadWrite(connection);
  }

  private onAuthReply(err: number): void {
    const refused = this.auth.onAuthReply(err);
    // The server closes the connection right after a refusal; closing it here first keeps later calls off
    // a connection that is already dead.
    if (refused) this.connection?.close(new ConnectionLossError({ cause: refused }));
  }

  // ---- auth -----------------------------------------------------------------------------------------

  /** Adds a credential: sent now when connected, and on every later connection. */
  addAuth(scheme: string, credentials: Uint8Array | string): Promise<void> {
    const refusal = this.refusal();
    if (refusal) return Promise.reject(refusal);
    return this.auth.add(scheme, credentials, this.ready ? this.connection : undefined);
  }

  /** `connection` ended (once): suspend, fail what it carried, reconnect. */
  onClose(connection: Connection, error: ZooKeeperError): void {
    if (connection !== this.connection) return;
    const host = this.currentHost;
    if (host !== undefined)
      this.emit('connection', { phase: 'closed', ...host, reason: error.cause ?? error });
    this.hosts.stopSearch();
    this.lastConnectionError = error;
    if (host !== undefined) this.connectFailures.record(host, error);
    this.connection = undefined;
    if (error.code === 'TLSERROR') {
      // A certificate or handshake failure will not heal by retrying: fail the client with it.
      this.terminate(error);
      return;
    }
    const wasReady = this.ready;
    this.ready = false;
    this.handshaken = false;
    this.pipeline.detach();
    const cause = error.cause ?? error;
    this.pipeline.failAllWithConnectionLoss(cause, wasReady);
    this.auth.connectionLost(cause);
    if (this.closing !== undefined || this.terminalError !== undefined) return;
    if (this.state === 'connected' || this.state === 'read-only') {
      this.machine.enterSuspended();
      this.expiryTimer.start(this.negotiatedTimeoutMs, () => this.expireClientSide());
    }
    if (this.failFast && !this.machine.hasConnected && this.connectFailures.coversAll(this.hosts.list)) {
      // failFast: every host failed before a first session; the client gives up with their reasons.
      this.terminate(this.connectFailures.asError('no server could be reached (failFast)') ?? error);
      return;
    }
    this.scheduleReconnect();
  }

  /**
   * The session is gone: every call fails SessionExpired, or a new session starts (autoRecreateSession, when
   * `mayRecreate`).
   */
  private expire(mayRecreate = true): void {
    this.expiryTimer.stop();
    // Set only when a session was granted: a server that keeps refusing (timeout 0) does not keep the calls
    // queued for the next session waiting forever; they fail after a session timeout with no session.
    const hadSession = this.negotiatedTimeoutMs !== 0;
    this.machine.enter('expired');
    this.machine.tell('lost');
    const makeError = (r: { path: string | undefined; decoder: { operation: string } }) =>
      new SessionExpiredError({ path: r.path, operation: r.decoder.operation });
    for (const [watchers, event] of expiryEvents(this.watches)) this.dispatchInOrder(watchers, event);
    this.watches.clear();
    // The credentials stay saved (a recreated session sends them again); calls waiting on them end here.
    this.auth.rejectAll(() => new SessionExpiredError({ operation: 'addAuth' }));
    if (mayRecreate && this.options.autoRecreateSession) {
      this.pipeline.failAll(makeError, false);
      if (hadSession) this.waitingSince = Date.now();
      // A new session starts from zxid 0, as a new Java handle does: the old session's last zxid would be
      // refused by an ensemble restored from a backup (or one that only ever saw a corrupted zxid).
      this.pipeline.resetZxid();
      this.identity.forget();
      this.machine.markConnectedBefore();
      this.machine.enter('connecting');
      this.scheduleReconnect();
      return;
    }
    this.terminalError = new SessionExpiredError();
    this.pipeline.failAll(makeError, true);
    this.pipeline.dispose();
    this.machine.end();
  }

  /** Ends everything with `error` (closed client, failed authentication). */
  private terminate(error: ZooKeeperError): void {
    // A close after expiry reports the close: it is what the caller did last.
    if (error.code === 'CLIENTCLOSED') this.terminalError = error;
    else this.terminalError ??= error;
    this.reconnectTimer.stop();
    this.expiryTimer.stop();
    this.hosts.stopSearch();
    this.hosts.stopDiscovery();
    const connection = this.connection;
    this.connection = undefined;
    this.ready = false;
    this.pipeline.detach();
    connection?.close(error);
    // The connection's close handler ignores a connection already let go: its waiters are settled here.
    failWaitersAtEnd(this.pipeline, this.auth, this.terminalError);
    this.machine.enter('closed');
    this.machine.end();
  }

  /**
   * Sends closeSession and waits for its reply (when connected) at most `closeTimeoutMs` (default: the
   * requested session timeout, or the negotiated one when less: a broken server may grant 24 days), then
   * ends everything. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.doClose(closedByClient);
    return this.closing;
  }

  private async doClose(closed: ClientClosedError): Promise<void> {
    const connection = this.connection;
    if (this.ready && connection !== undefined && this.terminalError === undefined) {
      const boundMs =
        this.closeTimeoutMs ??
        Math.min(this.requestedTimeoutMs, this.negotiatedTimeoutMs || this.requestedTimeoutMs);
      await closeSessionWithin(this.pipeline, boundMs);
    }
    this.terminate(closed);
  }

  /**
   * Ends the client without closing the session (no closeSession is sent), for another client to resume it:
   * calls already made get their answers first (within the close bound), later calls are refused with
   * ClientClosedError, watchers are dropped without an event. Resolves with the session's id, password and
   * granted timeout. Rejects, changing nothing, when there is no session to hand on: NoSessionError before
   * one was granted, the client's error when closed or expired.
   */
  detach(): Promise<{ id: bigint; password: Buffer; timeoutMs: number }> {
    const refusal = this.refusal('detach');
    if (refusal) return Promise.reject(refusal);
    if (!this.identity.resumable) {
      const granted = this.identity.id !== 0n && this.identity.negotiatedTimeoutMs > 0;
      const why = granted
        ? 'the session was granted by a read-only server, valid on no other server'
        : 'no server has granted a session (not yet, or not since the last one expired)';
      return Promise.reject(new NoSessionError(`Nothing to detach: ${why}`, { operation: 'detach' }));
    }
    const detaching = this.doDetach();
    this.closing = detaching.then(
      () => {},
      () => {},
    );
    return detaching;
  }

  private async doDetach(): Promise<{ id: bigint; password: Buffer; timeoutMs: number }> {
    if (this.ready && this.connection !== undefined) {
      const boundMs =
        this.closeTimeoutMs ??
        Math.min(this.requestedTimeoutMs, this.negotiatedTimeoutMs || this.requestedTimeoutMs);
      await settleCallsWithin(this.pipeline, boundMs);
    }
    // The wait may have seen the session end (told by a server on a reconnection): nothing to hand on then.
    const ended = this.terminalError;
    const handoff = this.identity.resumable
      ? {
          id: this.identity.id,
          password: Buffer.from(this.identity.password),
          timeoutMs: this.identity.negotiatedTimeoutMs,
        }
      : undefined;
    // Dropped without an event, as by close(); the server drops its watches with the connection, so the
    // client that resumes the session sets its own.
    this.watches.clear();
    this.terminate(closedByClient);
    if (handoff === undefined || ended !== undefined) {
      throw ended?.code === 'SESSIONEXPIRED'
        ? new SessionExpiredError({ operation: 'detach' })
        : (ended ?? new NoSessionError('Nothing to detach: the session ended', { operation: 'detach' }));
    }
    return handoff;
  }

  /** Replaces the host list; with `move`, leaves the connection in use (hosts.ts). */
  replaceHosts(hosts: readonly HostAddress[], move: boolean): void {
    this.hosts.replaceHosts(hosts, move);
  }
}
