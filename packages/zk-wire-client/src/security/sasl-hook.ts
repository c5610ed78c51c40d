/**
 * The SASL seam. The security module (src/security/) registers an authenticator factory; when
 * `options.sasl` is given, the session runs the authenticator right after each ConnectResponse and before the
 * saved auth packets, the watch restore and the queued requests (wire-protocol.md §10.4).
 *
 * SASL packets (opcode 102, GetSASLRequest / SetSASLResponse) get a normal xid but travel outside the pending
 * FIFO: the server answers them out of band. While an exchange is in progress the next reply that is not a
 * notification or ping is the SASL answer, so the session sends nothing else until `start()` settles.
 */
import type { SaslOptions } from '../util/types.js';

/** What an authenticator can do on the connection during its exchange. */
export interface SaslChannel {
  /**
   * Sends one GetSASLRequest{token} and resolves with the SetSASLResponse token (null for a null buffer).
   * Rejects with AuthFailedError when the server answers err -115 (it then closes the connection).
   */
  exchange(token: Uint8Array | null): Promise<Uint8Array | null>;
  /** The host name the client connected to (for the `zookeeper/<host>` principal). */
  readonly host: string;
}

/** Runs one SASL authentication on one connection. */
export interface SaslAuthenticator {
  /** Runs the whole exchange; resolves when authenticated, rejects to drop the connection. */
  start(): Promise<void>;
}

/** Builds an authenticator for one connection. */
export type SaslAuthenticatorFactory = (options: SaslOptions, channel: SaslChannel) => SaslAuthenticator;

const factories = new Map<string, SaslAuthenticatorFactory>();

/** Registers the factory of a mechanism (`DIGEST-MD5`, ...). Called by the security module. */
export function registerSaslAuthenticator(mechanism: string, factory: SaslAuthenticatorFactory): void {
  factories.set(mechanism.toUpperCase(), factory);
}

/** The factory registered for a mechanism, if any. */
export function saslAuthenticatorFactory(mechanism: string): SaslAuthenticatorFactory | undefined {
  return factories.get(mechanism.toUpperCase());
}
