/**
 * The credentials of a session and the calls waiting on them: saved `addAuth` credentials (re-sent on every
 * connection, a refused one dropped), the auth replies (xid -4) matched to them in order, and the SASL
 * exchange run right after each handshake (wire-protocol.md §10). Every waiter settles: on its reply, on the
 * connection's loss, or when the session ends (closed, expired).
 */
import { Buffer } from 'node:buffer';
import { encodeAuth } from '../protocol/auth.js';
import { decodeSaslReply, encodeSasl } from '../protocol/sasl.js';
import { concealProperty } from '../security/conceal.js';
import { type SaslChannel, saslAuthenticatorFactory } from '../security/sasl-hook.js';
import type { Connection } from '../transport/connection.js';
import {
  AuthFailedError,
  ConnectionLossError,
  errorFromCode,
  ProtocolError,
  ZooKeeperError,
} from '../util/errors.js';
import type { ClientOptions } from '../util/types.js';

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A saved credential, re-sent on every connection; `waiters` are addAuth calls awaiting its reply. */
interface SavedAuth {
  scheme: string;
  auth: Uint8Array;
  waiters: Waiter<void>[];
}

/** Saved credentials, their replies, and the SASL exchange of one session. */
export class SessionAuth {
  private readonly saved: SavedAuth[] = [];
  /** Credentials written on the current connection, in the order their replies will come. */
  private readonly awaitingReply: SavedAuth[] = [];
  private saslWaiter: Waiter<Uint8Array | null> | undefined;

  constructor(
    initial: ClientOptions['auth'],
    /** Where the SASL tokens' xids come from: the session's pipeline. */
    private readonly xids: { nextXid(): number },
  ) {
    for (const { scheme, credentials } of initial ?? []) {
      this.saved.push(concealProperty({ scheme, auth: toBytes(credentials), waiters: [] }, 'auth'));
    }
  }

  /** True while a SASL token is awaiting its reply: the next reply frame is it. */
  get saslInProgress(): boolean {
    return this.saslWaiter !== undefined;
  }

  /** Saves a credential; writes it at once on `connection` (the ready one, if any). Resolves on acceptance. */
  add(scheme: string, credentials: Uint8Array | string, connection: Connection | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const saved: SavedAuth = concealProperty(
        { scheme, auth: toBytes(credentials), waiters: [{ resolve, reject }] },
        'auth',
      );
      this.saved.push(saved);
      if (connection !== undefined) this.send(connection, saved);
    });
  }

  /** Writes every saved credential on a new connection (after SASL, before anything else). */
  sendAll(connection: Connection): void {
    for (const saved of this.saved) this.send(connection, saved);
  }

  private send(connection: Connection, saved: SavedAuth): void {
    this.awaitingReply.push(saved);
    connection.write(encodeAuth(saved.scheme, saved.auth));
  }

  /**
   * An auth reply. Returns the error when the server refused the credential: the credential is dropped (so
   * that the next connection works) and the server closes this connection right after its answer.
   */
  onAuthReply(err: number): ZooKeeperError | undefined {
    const saved = this.awaitingReply.shift();
    if (saved === undefined) throw new ProtocolError('auth reply with no auth pending');
    const waiters = saved.waiters.splice(0);
    if (err === 0) {
      for (const w of waiters) w.resolve();
      return undefined;
    }
    const index = this.saved.indexOf(saved);
    if (index >= 0) this.saved.splice(index, 1);
    const error = errorFromCode(err, { operation: 'addAuth' });
    for (const w of waiters) w.reject(error);
    return error;
  }

  /**
   * Runs the configured SASL mechanism over `connection`. Throws the error the client should end with: the
   * mechanism's own AuthFailed (a refused password) as it is, anything else wrapped in AuthFailedError. The
   * mechanism is looked up in the SASL seam's registry (sasl-hook.ts), where the session has registered the
   * built-in ones (security/built-in-mechanisms.ts) just before: this file knows no mechanism by name.
   */
  async authenticate(
    sasl: NonNullable<ClientOptions['sasl']>,
    connection: Connection,
    isCurrent: () => boolean,
  ) {
    const factory = saslAuthenticatorFactory(sasl.mechanism);
    if (factory === undefined) {
      throw new AuthFailedError({ cause: new Error(`no SASL authenticator for ${sasl.mechanism}`) });
    }
    try {
      await factory(sasl, this.saslChannel(connection, isCurrent)).start();
    } catch (error) {
      throw ZooKeeperError.isInstance(error) && error.code === 'AUTHFAILED'
        ? error
        : new AuthFailedError({ cause: error });
    }
  }

  private saslChannel(connection: Connection, isCurrent: () => boolean): SaslChannel {
    return {
      host: connection.address.host,
      exchange: (token) =>
        new Promise((resolve, reject) => {
          if (!isCurrent()) {
            reject(new ConnectionLossError({ operation: 'sasl' }));
            return;
          }
          this.saslWaiter = { resolve, reject };
          connection.write(encodeSasl(this.xids.nextXid(), token));
        }),
    };
  }

  /** The reply to the SASL token in flight. Throws on undecodable bytes, after settling the exchange. */
  onSaslReply(payload: Buffer): void {
    const waiter = this.saslWaiter!;
    this.saslWaiter = undefined;
    const err = payload.readInt32BE(12);
    if (err !== 0) {
      waiter.reject(errorFromCode(err, { operation: 'sasl' }));
      return;
    }
    let token: Uint8Array | null;
    try {
      token = decodeSaslReply(payload, 16);
    } catch (error) {
      // The waiter is already cleared: settle it here, then let the connection close on the bad bytes.
      waiter.reject(new ConnectionLossError({ operation: 'sasl', cause: error }));
      throw error;
    }
    waiter.resolve(token);
  }

  /** The connection is gone: what was sent on it fails ConnectionLoss; credentials not yet sent wait on. */
  connectionLost(cause: unknown): void {
    for (const saved of this.awaitingReply.splice(0)) {
      for (const w of saved.waiters.splice(0))
        w.reject(new ConnectionLossError({ operation: 'addAuth', cause }));
    }
    const sasl = this.saslWaiter;
    this.saslWaiter = undefined;
    sasl?.reject(new ConnectionLossError({ operation: 'sasl', cause }));
  }

  /** Rejects every waiter (sent or not yet sent) and the SASL exchange: the session ended or expired. */
  rejectAll(makeError: (operation: string) => ZooKeeperError): void {
    // A credential can be in both lists: its waiters are taken out the first time, so none is told twice.
    for (const saved of this.awaitingReply) rejectWaiters(saved, makeError);
    for (const saved of this.saved) rejectWaiters(saved, makeError);
    // No connection is left to answer the ones already sent.
    this.awaitingReply.length = 0;
    const sasl = this.saslWaiter;
    this.saslWaiter = undefined;
    sasl?.reject(makeError('sasl'));
  }
}

/** Rejects (and removes) the addAuth calls waiting on `saved`. */
function rejectWaiters(saved: SavedAuth, makeError: (operation: string) => ZooKeeperError): void {
  if (saved.waiters.length === 0) return;
  for (const w of saved.waiters.splice(0)) w.reject(makeError('addAuth'));
}

/** Credentials as bytes (strings as UTF-8). */
export function toBytes(value: Uint8Array | string): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}
