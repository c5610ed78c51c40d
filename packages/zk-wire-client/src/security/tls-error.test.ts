import { describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../util/errors.js';
import { isTlsError, TlsFailure, tlsErrorFrom } from './tls-error.js';

const nodeError = (code: string) => Object.assign(new Error(`node says ${code}`), { code });

describe('tlsErrorFrom', () => {
  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', TlsFailure.UNTRUSTED_SERVER_CERTIFICATE, false],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', TlsFailure.UNTRUSTED_SERVER_CERTIFICATE, false],
    ['ERR_TLS_CERT_ALTNAME_INVALID', TlsFailure.HOSTNAME_MISMATCH, false],
    ['CERT_HAS_EXPIRED', TlsFailure.SERVER_CERTIFICATE_EXPIRED, false],
    ['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', TlsFailure.CLIENT_CERTIFICATE_REJECTED, false],
    ['ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN', TlsFailure.CLIENT_CERTIFICATE_REJECTED, false],
    ['ERR_SSL_WRONG_VERSION_NUMBER', TlsFailure.NOT_TLS, false],
    ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', TlsFailure.NO_SHARED_PROTOCOL, false],
    ['ERR_SSL_SOMETHING_NEW', TlsFailure.HANDSHAKE_FAILED, false],
  ])('maps %s to %s', (code, reason, retryable) => {
    const error = tlsErrorFrom(nodeError(code), '10.0.0.1:2281');
    expect(error?.reason).toBe(reason);
    expect(error?.tlsCode).toBe(code);
    expect(error?.retryable).toBe(retryable);
    expect(error?.message).toContain('10.0.0.1:2281');
    expect(error?.message).toContain(code);
    expect(isTlsError(error)).toBe(true);
    expect(ZooKeeperError.isInstance(error)).toBe(true);
    expect(error?.cause).toBeInstanceOf(Error);
  });

  it('leaves network errors alone, also a reset during the handshake (proxies and restarting servers do that)', () => {
    expect(tlsErrorFrom(nodeError('ECONNREFUSED'), 'h:1', false)).toBeUndefined();
    expect(tlsErrorFrom(nodeError('ECONNRESET'), 'h:1', true)).toBeUndefined();
    expect(tlsErrorFrom(nodeError('ECONNRESET'), 'h:1', false)).toBeUndefined();
    expect(tlsErrorFrom(new Error('no code'), 'h:1')).toBeUndefined();
    expect(tlsErrorFrom(undefined, 'h:1')).toBeUndefined();
  });

  it('recognises certificate alerts that arrive after the handshake (TLS 1.3)', () => {
    const late = tlsErrorFrom(nodeError('ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE'), 'h:1', true);
    expect(late?.reason).toBe(TlsFailure.CLIENT_CERTIFICATE_REJECTED);
  });
});
