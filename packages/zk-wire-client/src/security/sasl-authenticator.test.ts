import { describe, expect, it } from 'vitest';
import {
  AuthFailedError,
  ConnectionLossError,
  InvalidArgumentError,
  ZooKeeperError,
} from '../util/errors.js';
import { digestMd5Authenticator } from './sasl-authenticator.js';
import { SaslAuthenticationError, SaslFailure } from './sasl-error.js';
import { registerSaslAuthenticator, type SaslChannel } from './sasl-hook.js';
import { validateSaslOptions } from './sasl-options.js';

/*
 * These check the adapter's control flow with scripted channel answers only; that the mechanism is accepted by
 * a real server is shown by test/security-sasl.test.ts.
 */
const CHALLENGE = Buffer.from('realm="zk-sasl-md5",nonce="abc",qop="auth",charset=utf-8,algorithm=md5-sess');
const OPTIONS = { mechanism: 'DIGEST-MD5', username: 'bob', password: 'secret-pw' } as const;

function scripted(answers: (Uint8Array | null | Error)[]): SaslChannel & { sent: (Uint8Array | null)[] } {
  const sent: (Uint8Array | null)[] = [];
  return {
    host: '127.0.0.1',
    sent,
    async exchange(token) {
      sent.push(token);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      if (answer === undefined) throw new Error('unexpected extra exchange');
      return answer;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('digestMd5Authenticator', () => {
  it('sends an empty (not null) first token, then a digest-response naming zookeeper/zk-sasl-md5', async () => {
    const channel = scripted([CHALLENGE, new AuthFailedError()]);
    await rejection(digestMd5Authenticator(OPTIONS, channel).start());
    expect(channel.sent[0]).toEqual(new Uint8Array(0));
    expect(Buffer.from(channel.sent[1]!).toString()).toContain('digest-uri="zookeeper/zk-sasl-md5"');
  });

  it('turns the server refusal (AUTHFAILED) into SaslAuthenticationError REJECTED without the password', async () => {
    const error = await rejection(
      digestMd5Authenticator(OPTIONS, scripted([CHALLENGE, new AuthFailedError()])).start(),
    );
    expect(error).toBeInstanceOf(SaslAuthenticationError);
    expect((error as SaslAuthenticationError).reason).toBe(SaslFailure.REJECTED);
    expect((error as SaslAuthenticationError).errno).toBe(-115);
    expect(String(error)).not.toContain('secret-pw');
  });

  it('passes a lost connection on unchanged, so the session just reconnects', async () => {
    const lost = new ConnectionLossError();
    expect(await rejection(digestMd5Authenticator(OPTIONS, scripted([lost])).start())).toBe(lost);
  });

  it('reports a server without SASL (null token) as NOT_CONFIGURED', async () => {
    const error = await rejection(digestMd5Authenticator(OPTIONS, scripted([null])).start());
    expect((error as SaslAuthenticationError).reason).toBe(SaslFailure.NOT_CONFIGURED);
  });

  it('refuses a forged rspauth as SERVER_NOT_VERIFIED', async () => {
    const channel = scripted([CHALLENGE, Buffer.from('rspauth=0123456789abcdef0123456789abcdef')]);
    const error = await rejection(digestMd5Authenticator(OPTIONS, channel).start());
    expect((error as SaslAuthenticationError).reason).toBe(SaslFailure.SERVER_NOT_VERIFIED);
    expect(ZooKeeperError.isInstance(error)).toBe(true);
  });
});

describe('validateSaslOptions', () => {
  it('accepts a mechanism plugged in with registerSaslAuthenticator', () => {
    expect(() => validateSaslOptions({ ...OPTIONS, mechanism: 'X-TEST-PLUGGED' })).toThrow(
      InvalidArgumentError,
    );
    registerSaslAuthenticator('X-TEST-PLUGGED', () => ({ start: async () => {} }));
    expect(() => validateSaslOptions({ ...OPTIONS, mechanism: 'x-test-plugged' })).not.toThrow();
  });

  it('accepts DIGEST-MD5 with a user and password', () => {
    expect(() => validateSaslOptions(undefined)).not.toThrow();
    expect(() =>
      validateSaslOptions({ ...OPTIONS, mechanism: 'digest-md5', hostname: 'zk-sasl-md5' }),
    ).not.toThrow();
  });

  it.each([
    ['no object', 'x', 'sasl'],
    ['GSSAPI', { ...OPTIONS, mechanism: 'GSSAPI' }, 'sasl.mechanism'],
    ['an empty user', { ...OPTIONS, username: '' }, 'sasl.username'],
    ['no password', { mechanism: 'DIGEST-MD5', username: 'bob' }, 'sasl.password'],
    ['a hostname with /', { ...OPTIONS, hostname: 'a/b' }, 'sasl.hostname'],
  ])('refuses %s, naming %s and not the password', (_name, sasl, argument) => {
    try {
      validateSaslOptions(sasl);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe(argument);
      expect(String(error)).not.toContain('secret-pw');
    }
  });
});
