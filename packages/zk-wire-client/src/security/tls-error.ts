/**
 * Turns node:tls / OpenSSL failures into one typed error that says, in words, what is wrong with which server,
 * and whether trying again can help. Certificates and keys are never quoted, only node's error code.
 */
import { ZooKeeperError } from '../util/errors.js';

/** What went wrong in a TLS connection, as a stable string callers can branch on. */
export const TlsFailure = {
  /** The server's certificate is not signed by a CA we trust (wrong or missing `ca`). */
  UNTRUSTED_SERVER_CERTIFICATE: 'UNTRUSTED_SERVER_CERTIFICATE',
  /** The server's certificate is valid but names another host (`servername` / host vs. its SAN). */
  HOSTNAME_MISMATCH: 'HOSTNAME_MISMATCH',
  /** The server's certificate has expired or is not valid yet. */
  SERVER_CERTIFICATE_EXPIRED: 'SERVER_CERTIFICATE_EXPIRED',
  /** The server refused our client certificate, or wanted one and got none (`ssl.clientAuth=need`). */
  CLIENT_CERTIFICATE_REJECTED: 'CLIENT_CERTIFICATE_REJECTED',
  /** The peer does not speak TLS. */
  NOT_TLS: 'NOT_TLS',
  /** Both speak TLS but share no protocol version or cipher suite (e.g. `minVersion: 'TLSv1.3'` vs a 1.2 server). */
  NO_SHARED_PROTOCOL: 'NO_SHARED_PROTOCOL',
  /** Any other TLS failure node reports (an OpenSSL error code this table does not name). */
  HANDSHAKE_FAILED: 'HANDSHAKE_FAILED',
} as const;

/** One of {@link TlsFailure}. */
export type TlsFailureReason = (typeof TlsFailure)[keyof typeof TlsFailure];

const REASONS: Record<string, TlsFailureReason> = {
  SELF_SIGNED_CERT_IN_CHAIN: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  DEPTH_ZERO_SELF_SIGNED_CERT: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  UNABLE_TO_GET_ISSUER_CERT: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  CERT_UNTRUSTED: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  CERT_SIGNATURE_FAILURE: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  CERT_REVOKED: TlsFailure.UNTRUSTED_SERVER_CERTIFICATE,
  ERR_TLS_CERT_ALTNAME_INVALID: TlsFailure.HOSTNAME_MISMATCH,
  CERT_HAS_EXPIRED: TlsFailure.SERVER_CERTIFICATE_EXPIRED,
  CERT_NOT_YET_VALID: TlsFailure.SERVER_CERTIFICATE_EXPIRED,
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: TlsFailure.CLIENT_CERTIFICATE_REJECTED,
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: TlsFailure.CLIENT_CERTIFICATE_REJECTED,
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: TlsFailure.CLIENT_CERTIFICATE_REJECTED,
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: TlsFailure.CLIENT_CERTIFICATE_REJECTED,
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: TlsFailure.CLIENT_CERTIFICATE_REJECTED,
  ERR_SSL_WRONG_VERSION_NUMBER: TlsFailure.NOT_TLS,
  ERR_SSL_PACKET_LENGTH_TOO_LONG: TlsFailure.NOT_TLS,
  ERR_SSL_UNSUPPORTED_PROTOCOL: TlsFailure.NO_SHARED_PROTOCOL,
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: TlsFailure.NO_SHARED_PROTOCOL,
  ERR_SSL_NO_PROTOCOLS_AVAILABLE: TlsFailure.NO_SHARED_PROTOCOL,
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: TlsFailure.NO_SHARED_PROTOCOL,
  ERR_SSL_NO_SHARED_CIPHER: TlsFailure.NO_SHARED_PROTOCOL,
};

const EXPLANATIONS: Record<TlsFailureReason, string> = {
  UNTRUSTED_SERVER_CERTIFICATE:
    'the server certificate is not signed by a trusted CA (check the `ca` option)',
  HOSTNAME_MISMATCH: 'the server certificate does not name this server (check the host or `servername`)',
  SERVER_CERTIFICATE_EXPIRED: 'the server certificate has expired or is not valid yet',
  CLIENT_CERTIFICATE_REJECTED:
    'the server refused the client certificate, or requires one (check `cert`/`key` and the CA the server trusts)',
  NOT_TLS: 'the server did not answer in TLS (is this the plaintext client port, not secureClientPort?)',
  NO_SHARED_PROTOCOL:
    'client and server share no TLS version or cipher suite (check minVersion/ciphers and the server ssl.* settings)',
  HANDSHAKE_FAILED: 'the TLS handshake failed',
};

/**
 * A TLS connection to a server failed in a way only a configuration change can cure (`retryable` is false).
 * `code` is 'TLSERROR'; `reason` says what was wrong and `tlsCode` is node's own code.
 */
export class TlsError extends ZooKeeperError {
  /** What was wrong. */
  readonly reason: TlsFailureReason;
  /** node's error code (`ERR_TLS_CERT_ALTNAME_INVALID`, `SELF_SIGNED_CERT_IN_CHAIN`, ...), when there was one. */
  readonly tlsCode: string | undefined;
  /** The server, as `host:port`. */
  readonly server: string;
  constructor(reason: TlsFailureReason, server: string, tlsCode: string | undefined, cause?: unknown) {
    const code = tlsCode ? ` [${tlsCode}]` : '';
    const explanation = EXPLANATIONS[reason];
    super('TLSERROR', -4, `TLS connection to ${server} failed: ${explanation}${code}`, { cause }, false);
    this.reason = reason;
    this.tlsCode = tlsCode;
    this.server = server;
  }
}

/** True when `error` is a {@link TlsError} (also from another copy of this package). */
export function isTlsError(error: unknown): error is TlsError {
  return ZooKeeperError.isInstance(error) && error.code === 'TLSERROR';
}

/**
 * Classifies a socket error of a TLS connection. Returns a {@link TlsError} for certificate, alert and protocol
 * failures, which a retry cannot cure, and undefined for network errors (ECONNREFUSED, ECONNRESET, ...), which
 * stay connection losses and are retried.
 *
 * A reset during the handshake stays a connection loss on purpose: a proxy, a load balancer or a server going
 * down drops handshakes the same way, and the client must ride that out. The price is that TLS sent to
 * ZooKeeper's plaintext port (which hangs up on the ClientHello) is retried rather than reported.
 * `handshakeDone` ('secureConnect' fired) does not change the result: under TLS 1.3 the server's certificate
 * alerts arrive after it, and they are recognised by their codes either way.
 */
export function tlsErrorFrom(error: unknown, server: string, _handshakeDone = true): TlsError | undefined {
  const tlsCode =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  if (tlsCode === undefined) return undefined;
  if (tlsCode in REASONS) return new TlsError(REASONS[tlsCode]!, server, tlsCode, error);
  if (
    tlsCode.startsWith('ERR_SSL_') ||
    tlsCode.startsWith('ERR_TLS_') ||
    /^(CERT_|UNABLE_TO_)/.test(tlsCode)
  ) {
    return new TlsError(TlsFailure.HANDSHAKE_FAILED, server, tlsCode, error);
  }
  return undefined;
}
