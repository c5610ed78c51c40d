import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../util/errors.js';
import { tlsConnectOptions, validateTlsOption } from './tls-options.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n';

function refusal(tls: unknown): InvalidArgumentError {
  try {
    validateTlsOption(tls);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error;
    throw error;
  }
  throw new Error('expected InvalidArgumentError');
}

describe('validateTlsOption', () => {
  it('accepts absent, booleans, and usable node:tls options', () => {
    for (const ok of [
      undefined,
      true,
      false,
      {},
      { ca: PEM },
      { ca: [PEM, Buffer.from(PEM)], cert: PEM, key: KEY },
    ]) {
      expect(() => validateTlsOption(ok)).not.toThrow();
    }
    expect(() => validateTlsOption({ pfx: Buffer.alloc(1), passphrase: 'x' })).not.toThrow();
    expect(() =>
      validateTlsOption({ servername: 'zk.example.org', rejectUnauthorized: false }),
    ).not.toThrow();
  });

  it.each([
    ['a number', 1, 'tls'],
    ['an array', [], 'tls'],
    ['a file path as ca', { ca: '/etc/zk/ca.pem' }, 'tls.ca'],
    ['a file path among cas', { ca: [PEM, 'ca.pem'] }, 'tls.ca'],
    ['a number as cert', { cert: 5, key: KEY }, 'tls.cert'],
    ['cert without key', { cert: PEM }, 'tls.key'],
    ['key without cert', { key: KEY }, 'tls.cert'],
    ['an explicit host', { host: 'x' }, 'tls.host'],
    ['an explicit port', { port: 1 }, 'tls.port'],
    ['an IP servername', { servername: '127.0.0.1' }, 'tls.servername'],
  ])('refuses %s, naming %s', (_name, tls, argument) => {
    const error = refusal(tls);
    expect(error.argument).toBe(argument);
    expect(error.code).toBe('BADARGUMENTS');
  });

  it('never quotes key material in its message', () => {
    const secret = 'not-a-pem-but-a-secret-key-value';
    expect(refusal({ cert: PEM, key: secret }).message).not.toContain(secret);
  });
});

describe('tlsConnectOptions', () => {
  it('verifies against the host name of the connect string, TLS 1.2 at least', () => {
    expect(tlsConnectOptions(true, 'zk1.example.org', 2281)).toEqual({
      minVersion: 'TLSv1.2',
      servername: 'zk1.example.org',
      host: 'zk1.example.org',
      port: 2281,
    });
  });

  it('sends no SNI for an IP address, and keeps user options and an explicit servername', () => {
    const options = tlsConnectOptions({ ca: PEM, minVersion: 'TLSv1.3' }, '127.0.0.1', 2281);
    expect(options).toEqual({ ca: PEM, minVersion: 'TLSv1.3', host: '127.0.0.1', port: 2281 });
    expect(tlsConnectOptions({ servername: 'zk.internal' }, '10.0.0.1', 1).servername).toBe('zk.internal');
    expect(tlsConnectOptions({}, '::1', 1)).not.toHaveProperty('servername');
  });
});
