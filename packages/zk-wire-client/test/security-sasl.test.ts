/*
 * SASL DIGEST-MD5 against a real ZooKeeper configured with a JAAS Server section (and the sasl auth provider),
 * on its plaintext and on its TLS port. One server for the whole file.
 */
import { inspect } from 'node:util';
import { nextState, type SecureZooKeeperServer, startSecureZooKeeper } from '@zkwire/testing';
import {
  AuthFailedError,
  acls,
  type ClientOptions,
  connect,
  isNoAuth,
  isSaslAuthenticationError,
  type SaslAuthenticationError,
  SaslFailure,
  saslAcl,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput, everythingShown, expectNoSecrets, rejectionOf } from './security-helpers.js';

const BOB_PASSWORD = 'b0b-SASL-pa55';
const WRONG_PASSWORD = 'wr0ng-SASL-guess';

let server: SecureZooKeeperServer;
const clients: ZooKeeperClient[] = [];

beforeAll(async () => {
  server = await startSecureZooKeeper({ saslUsers: { bob: BOB_PASSWORD, carol: 'carol-pw' } });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((zk) => zk.close()));
  await server?.close();
});

function sasl(username: string, password: string): ClientOptions['sasl'] {
  return { mechanism: 'DIGEST-MD5', username, password };
}

async function client(options: Partial<ClientOptions> = {}): Promise<ZooKeeperClient> {
  const zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 20_000, ...options });
  clients.push(zk);
  return zk;
}

describe('SASL DIGEST-MD5', () => {
  it('authenticates with the right password: whoAmI shows sasl:bob', async () => {
    const zk = await client({ sasl: sasl('bob', BOB_PASSWORD) });
    expect(zk.state).toBe('connected');
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
  });

  it('a sasl ACL admits its user and refuses anonymous and other SASL users', async () => {
    const bob = await client({ sasl: sasl('bob', BOB_PASSWORD) });
    await bob.create('/bobs', 'data', { acl: [saslAcl('bob')] });
    await bob.create('/bobs/child', 'c', { acl: [saslAcl('bob')] });
    for (const other of [await client(), await client({ sasl: sasl('carol', 'carol-pw') })]) {
      for (const call of [
        other.getData('/bobs'),
        other.setData('/bobs', 'x'),
        other.delete('/bobs/child'),
        other.setACL('/bobs', acls.open()),
      ]) {
        expect(isNoAuth(await rejectionOf(call))).toBe(true);
      }
    }
    expect((await bob.getData('/bobs')).data.toString()).toBe('data');
  });

  it('fails with a wrong password: AUTHFAILED naming SASL and the reason, no password anywhere', async () => {
    let shown = '';
    const output = await captureOutput(async () => {
      const attempt = connect(
        { connectString: server.connectString, sessionTimeoutMs: 20_000, sasl: sasl('bob', WRONG_PASSWORD) },
        { timeoutMs: 15_000 },
      );
      const error = await rejectionOf(attempt);
      expect(error).toBeInstanceOf(AuthFailedError);
      expect(error.code).toBe('AUTHFAILED');
      // The mechanism's own error (an AuthFailedError with its reason) comes through as it is, unwrapped.
      expect(isSaslAuthenticationError(error), String(error)).toBe(true);
      expect((error as unknown as SaslAuthenticationError).reason).toBe(SaslFailure.REJECTED);
      shown = everythingShown(error);
      expect(shown).toMatch(/SASL DIGEST-MD5 authentication failed \(REJECTED\)/);
    });
    // A failure is per client: the right password still works at once.
    expect((await client({ sasl: sasl('bob', BOB_PASSWORD) })).state).toBe('connected');
    expectNoSecrets(`${shown}\n${output}`, [WRONG_PASSWORD, BOB_PASSWORD]);
  });

  it('keeps the SASL password and digest credentials out of inspect, console.log and JSON of the client', async () => {
    const digestSecret = 'digest-Pa55-for-inspect';
    const zk = await client({
      sasl: sasl('bob', BOB_PASSWORD),
      auth: [{ scheme: 'digest', credentials: `dave:${digestSecret}` }],
    });
    await zk.addAuth('digest', `erin:${digestSecret}-2`);
    const output = await captureOutput(async () => {
      console.log(zk);
      console.log('%o', zk);
    });
    const shown = [output, inspect(zk, { depth: Number.POSITIVE_INFINITY })];
    try {
      shown.push(JSON.stringify(zk));
    } catch {
      // a circular client cannot be serialized, which leaks nothing either
    }
    expect(output.length).toBeGreaterThan(0);
    expectNoSecrets(shown.join('\n'), [BOB_PASSWORD, digestSecret]);
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'digest', user: 'erin' });
  });

  it('authenticates again after the server restarts', async () => {
    const zk = await client({ sasl: sasl('bob', BOB_PASSWORD) });
    await zk.create('/bobs-restart', 'x', { acl: [saslAcl('bob')] });
    const session = zk.sessionId;
    const reconnected = nextState(zk, 'reconnected');
    await server.restart();
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    expect((await zk.getData('/bobs-restart')).data.toString()).toBe('x');
  });

  it('works over TLS too, where the connection has both the sasl and the x509 identity', async () => {
    const certs = server.certificates!;
    const zk = await connect({
      connectString: server.secureConnectString,
      sessionTimeoutMs: 20_000,
      tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
      sasl: sasl('bob', BOB_PASSWORD),
    });
    clients.push(zk);
    const identities = await zk.whoAmI();
    expect(identities).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    expect(identities).toContainEqual({ authScheme: 'x509', user: certs.clientX509Id });
  });
});
