import { describe, expect, it } from 'vitest';
import javaExchanges from './__fixtures__/digest-md5-java.json' with { type: 'json' };
import { parseDirectives } from './digest-directives.js';
import { DigestMd5Client } from './digest-md5.js';
import { isSaslAuthenticationError, SaslAuthenticationError, SaslFailure } from './sasl-error.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const bytes = (value: string) => Buffer.from(value, 'utf8');

function directive(token: Uint8Array, name: string): string | undefined {
  return parseDirectives(text(token)).get(name)?.[0];
}

/** Runs the client up to its digest-response. */
function respond(client: DigestMd5Client, challenge: string): Uint8Array {
  expect(client.initialResponse()).toHaveLength(0);
  return client.evaluateChallenge(bytes(challenge));
}

function failure(run: () => unknown): SaslAuthenticationError {
  try {
    run();
  } catch (error) {
    if (error instanceof SaslAuthenticationError) return error;
    throw error;
  }
  throw new Error('expected a SaslAuthenticationError');
}

const ZK_CHALLENGE =
  'realm="zk-sasl-md5",nonce="RZEHe/zpgmjnSLkxv2Q3h+l3g/w7gstLac/BPOHS",qop="auth",charset=utf-8,algorithm=md5-sess';

describe('DigestMd5Client against RFC 2831 §4 example', () => {
  // The RFC's IMAP example: user chris, password secret, fixed cnonce; response and rspauth from the RFC text.
  const challenge =
    'realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8';

  it('computes the RFC response and accepts the RFC rspauth', () => {
    const client = new DigestMd5Client(
      { username: 'chris', password: 'secret', serviceName: 'imap', hostname: 'elwood.innosoft.com' },
      { cnonce: () => 'OA6MHXh6VqTrRk' },
    );
    const response = respond(client, challenge);
    expect(directive(response, 'response')).toBe('d388dad90d4bbd760a152321f2143af7');
    expect(directive(response, 'digest-uri')).toBe('imap/elwood.innosoft.com');
    expect(client.complete).toBe(false);
    expect(client.evaluateChallenge(bytes('rspauth=ea40f60335c427b5527b84dbabcdfffd'))).toHaveLength(0);
    expect(client.complete).toBe(true);
  });

  it('refuses a wrong rspauth as SERVER_NOT_VERIFIED', () => {
    const client = new DigestMd5Client(
      { username: 'chris', password: 'secret', serviceName: 'imap', hostname: 'elwood.innosoft.com' },
      { cnonce: () => 'OA6MHXh6VqTrRk' },
    );
    respond(client, challenge);
    const error = failure(() => client.evaluateChallenge(bytes('rspauth=00000000000000000000000000000000')));
    expect(error.reason).toBe(SaslFailure.SERVER_NOT_VERIFIED);
    expect(client.complete).toBe(false);
  });
});

describe('DigestMd5Client against exchanges between the JDK SASL client and server', () => {
  for (const exchange of javaExchanges) {
    it(`${exchange.username} / ${exchange.authzid || 'no authzid'}: same token as the JDK, accepts its rspauth`, () => {
      const cnonce = parseDirectives(exchange.response).get('cnonce')![0]!;
      const client = new DigestMd5Client(
        { username: exchange.username, password: exchange.password, authzid: exchange.authzid || undefined },
        { cnonce: () => cnonce },
      );
      expect(text(respond(client, exchange.challenge))).toBe(exchange.response);
      client.evaluateChallenge(bytes(exchange.rspauth));
      expect(client.complete).toBe(true);
    });
  }

  it('with a wrong password, sends a response that differs from the JDK one (so the server refuses it)', () => {
    const exchange = javaExchanges[0]!;
    const cnonce = parseDirectives(exchange.response).get('cnonce')![0]!;
    const client = new DigestMd5Client({ username: 'bob', password: 'wrong' }, { cnonce: () => cnonce });
    const response = respond(client, exchange.challenge);
    expect(directive(response, 'response')).toMatch(/^[0-9a-f]{32}$/);
    expect(directive(response, 'response')).not.toBe(parseDirectives(exchange.response).get('response')![0]);
    expect(failure(() => client.evaluateChallenge(bytes(exchange.rspauth))).reason).toBe(
      SaslFailure.SERVER_NOT_VERIFIED,
    );
  });
});

describe('DigestMd5Client token handling', () => {
  const client = () => new DigestMd5Client({ username: 'bob', password: 'secret' }, { cnonce: () => 'abc' });

  it('uses the ZooKeeper digest-uri and a fresh random cnonce by default', () => {
    const first = respond(new DigestMd5Client({ username: 'bob', password: 'secret' }), ZK_CHALLENGE);
    const second = respond(new DigestMd5Client({ username: 'bob', password: 'secret' }), ZK_CHALLENGE);
    expect(directive(first, 'digest-uri')).toBe('zookeeper/zk-sasl-md5');
    expect(directive(first, 'cnonce')?.length).toBeGreaterThanOrEqual(16);
    expect(directive(first, 'cnonce')).not.toBe(directive(second, 'cnonce'));
  });

  it('escapes quotes and backslashes in the user name', () => {
    const response = respond(
      new DigestMd5Client({ username: 'a"b\\c', password: 'p' }, { cnonce: () => 'x' }),
      ZK_CHALLENGE,
    );
    expect(text(response)).toContain('username="a\\"b\\\\c"');
    expect(directive(response, 'username')).toBe('a"b\\c');
  });

  it('omits realm when none is offered and hashes with the empty realm', () => {
    const response = respond(client(), 'nonce="n",qop="auth",algorithm=md5-sess');
    expect(parseDirectives(text(response)).has('realm')).toBe(false);
    expect(parseDirectives(text(response)).has('charset')).toBe(false);
  });

  it.each([
    ['no token (server without SASL)', null, SaslFailure.NOT_CONFIGURED],
    ['an empty token', '', SaslFailure.NOT_CONFIGURED],
    ['no nonce', 'realm="r",qop="auth",algorithm=md5-sess', SaslFailure.BAD_CHALLENGE],
    ['two nonces', 'nonce="a",nonce="b",algorithm=md5-sess', SaslFailure.BAD_CHALLENGE],
    ['no algorithm', 'nonce="a",qop="auth"', SaslFailure.UNSUPPORTED],
    ['only auth-conf', 'nonce="a",qop="auth-conf",algorithm=md5-sess', SaslFailure.UNSUPPORTED],
    ['a bad charset', 'nonce="a",algorithm=md5-sess,charset=latin1', SaslFailure.BAD_CHALLENGE],
    ['broken syntax', 'nonce="a', SaslFailure.BAD_CHALLENGE],
    ['an oversized token', `nonce="${'a'.repeat(3000)}",algorithm=md5-sess`, SaslFailure.BAD_CHALLENGE],
  ])('refuses a challenge with %s', (_name, challenge, reason) => {
    const c = client();
    c.initialResponse();
    const error = failure(() => c.evaluateChallenge(challenge === null ? null : bytes(challenge)));
    expect(error.reason).toBe(reason);
    expect(error.code).toBe('AUTHFAILED');
    expect(isSaslAuthenticationError(error)).toBe(true);
  });

  it('refuses non-ISO-8859-1 credentials when the server did not offer UTF-8', () => {
    const c = new DigestMd5Client({ username: 'bob', password: '密码' });
    c.initialResponse();
    expect(failure(() => c.evaluateChallenge(bytes('nonce="a",algorithm=md5-sess'))).reason).toBe(
      SaslFailure.UNSUPPORTED,
    );
  });

  it('refuses a token after completion', () => {
    const exchange = javaExchanges[0]!;
    const cnonce = parseDirectives(exchange.response).get('cnonce')![0]!;
    const c = new DigestMd5Client({ username: 'bob', password: 'secret' }, { cnonce: () => cnonce });
    respond(c, exchange.challenge);
    c.evaluateChallenge(bytes(exchange.rspauth));
    expect(failure(() => c.evaluateChallenge(bytes(exchange.rspauth))).reason).toBe(
      SaslFailure.BAD_CHALLENGE,
    );
  });

  it('never puts the password or the user name into an error message', () => {
    const secrets = { username: 'user-5ecret-name', password: 'pa55-5ecret-word' };
    const messages: string[] = [];
    for (const challenge of [
      'nonce="a',
      'nonce="a",qop="auth-int",algorithm=md5-sess',
      'nonce="n",algorithm=md5-sess',
    ]) {
      const c = new DigestMd5Client(secrets);
      c.initialResponse();
      try {
        c.evaluateChallenge(bytes(challenge));
        c.evaluateChallenge(bytes('rspauth=ffffffffffffffffffffffffffffffff'));
      } catch (error) {
        messages.push(String(error), JSON.stringify(error), (error as Error).stack ?? '');
      }
    }
    expect(messages.length).toBe(9);
    for (const message of messages) {
      expect(message).not.toContain(secrets.password);
      expect(message).not.toContain(secrets.username);
    }
  });
});
