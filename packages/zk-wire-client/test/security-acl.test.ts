/*
 * Digest authentication and ACLs against a real ZooKeeper: who may read, write, delete and change ACLs,
 * getACL/setACL round trips, ip and creator ACLs, a digest superuser, and credentials re-sent after a
 * reconnect. One server (and one fault proxy) for the whole file.
 */
import { nextState } from '@zkwire/testing';
import {
  acls,
  connect,
  digestId,
  isNoAuth,
  isSaslAuthenticationError,
  Perms,
  type SaslAuthenticationError,
  SaslFailure,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import { useProxiedServer } from './faults-helpers.js';
import { captureOutput, everythingShown, expectNoSecrets, rejectionOf } from './security-helpers.js';

const BOB = { user: 'bob', password: 'b0b-Pa55-word' };
const SUPER_PASSWORD = 'super-S3cret';

const fixture = useProxiedServer({
  jvmFlags: [`-Dzookeeper.DigestAuthenticationProvider.superDigest=${digestId('super', SUPER_PASSWORD)}`],
});
const clients: ZooKeeperClient[] = [];

async function client(options: Partial<Parameters<typeof connect>[0]> = {}): Promise<ZooKeeperClient> {
  const zk = await connect({
    connectString: fixture.server.connectString,
    sessionTimeoutMs: 20_000,
    ...options,
  });
  clients.push(zk);
  return zk;
}

async function bob(): Promise<ZooKeeperClient> {
  const zk = await client();
  await zk.addAuth('digest', `${BOB.user}:${BOB.password}`);
  return zk;
}

afterAll(async () => {
  await Promise.allSettled(clients.map((zk) => zk.close()));
});

async function expectNoAuth(call: Promise<unknown>): Promise<void> {
  const error = await rejectionOf(call);
  expect(isNoAuth(error), String(error)).toBe(true);
  expect(error.code).toBe('NOAUTH');
  expect(error.errno).toBe(-102);
}

describe('digest ACLs', () => {
  it('refuse a client without the credentials for read, write, create, delete and ACL changes', async () => {
    const owner = await bob();
    await owner.create('/private', 'top secret', { acl: [acls.digest(BOB.user, BOB.password)] });
    await owner.create('/private/child', 'x', { acl: [acls.digest(BOB.user, BOB.password)] });

    for (const stranger of [
      await client(),
      await client({ auth: [{ scheme: 'digest', credentials: 'bob:wrong' }] }),
    ]) {
      await expectNoAuth(stranger.getData('/private'));
      await expectNoAuth(stranger.setData('/private', 'overwritten'));
      await expectNoAuth(stranger.create('/private/intruder', 'x'));
      await expectNoAuth(stranger.delete('/private/child'));
      await expectNoAuth(stranger.setACL('/private', acls.open()));
      await expectNoAuth(stranger.getChildren('/private'));
    }
    // Nothing changed, and the owner can do all of it.
    expect((await owner.getData('/private')).data.toString()).toBe('top secret');
    await owner.setData('/private', 'v2');
    await owner.delete('/private/child');
    expect(await owner.getChildren('/private')).toEqual([]);
  });

  it('round-trip through getACL/setACL, and a read-only grant lets others read but not write', async () => {
    const owner = await bob();
    const acl = [acls.digest(BOB.user, BOB.password, Perms.ALL), acls.readOnly()[0]!];
    await owner.create('/shared', 'hello', { acl: [acls.digest(BOB.user, BOB.password)] });
    const stat = await owner.setACL('/shared', acl, { version: 0 });
    expect(stat.aversion).toBe(1);
    const read = await owner.getACL('/shared');
    expect(read.acl).toEqual([
      { perms: Perms.ALL, id: { scheme: 'digest', id: digestId(BOB.user, BOB.password) } },
      { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } },
    ]);
    expect(read.stat.aversion).toBe(1);

    const reader = await client();
    expect((await reader.getData('/shared')).data.toString()).toBe('hello');
    await expectNoAuth(reader.setData('/shared', 'nope'));
    await expectNoAuth(reader.setACL('/shared', acls.open()));
  });

  it('creatorAll gives the creating identity all rights, and nobody else any', async () => {
    const owner = await bob();
    await owner.create('/mine', 'x', { acl: acls.creatorAll() });
    expect((await owner.getACL('/mine')).acl).toEqual([
      { perms: Perms.ALL, id: { scheme: 'digest', id: digestId(BOB.user, BOB.password) } },
    ]);
    const anonymous = await client();
    await expectNoAuth(anonymous.getData('/mine'));
    // Without an authenticated identity there is nobody to give the rights to.
    expect((await rejectionOf(anonymous.create('/nobodys', 'x', { acl: acls.creatorAll() }))).code).toBe(
      'INVALIDACL',
    );
  });

  it('ip ACLs match the client address, single or CIDR', async () => {
    const anonymous = await client();
    await anonymous.create('/ip-local', 'x', { acl: [acls.ip('127.0.0.1', Perms.READ | Perms.ADMIN)] });
    await anonymous.create('/ip-block', 'x', { acl: [acls.ip('127.0.0.0/8', Perms.READ)] });
    await anonymous.create('/ip-other', 'x', { acl: [acls.ip('10.1.2.3')] });
    expect((await anonymous.getData('/ip-local')).data.toString()).toBe('x');
    expect((await anonymous.getData('/ip-block')).data.toString()).toBe('x');
    await expectNoAuth(anonymous.setData('/ip-local', 'y'));
    await expectNoAuth(anonymous.getData('/ip-other'));
  });

  it('a digest superuser passes every check', async () => {
    const owner = await bob();
    await owner.create('/locked', 'x', { acl: [acls.digest(BOB.user, BOB.password)] });
    const admin = await client({ auth: [{ scheme: 'digest', credentials: `super:${SUPER_PASSWORD}` }] });
    expect((await admin.getData('/locked')).data.toString()).toBe('x');
    await admin.delete('/locked');
    expect(await owner.exists('/locked')).toBeNull();
  });

  it('shows the digest identity in whoAmI', async () => {
    const identities = await (await bob()).whoAmI();
    expect(identities).toContainEqual({ authScheme: 'digest', user: BOB.user });
  });
});

describe('credentials across reconnects', () => {
  it('are sent again on every new connection (auth option and addAuth alike)', async () => {
    const owner = await bob();
    await owner.create('/reauth', 'still mine', { acl: [acls.digest(BOB.user, BOB.password)] });
    const viaOption = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 20_000,
      auth: [{ scheme: 'digest', credentials: `${BOB.user}:${BOB.password}` }],
    });
    clients.push(viaOption);
    const viaAddAuth = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 20_000,
    });
    clients.push(viaAddAuth);
    await viaAddAuth.addAuth('digest', `${BOB.user}:${BOB.password}`);

    const sessions = [viaOption.sessionId, viaAddAuth.sessionId];
    const reconnected = Promise.all([
      nextState(viaOption, 'reconnected'),
      nextState(viaAddAuth, 'reconnected'),
    ]);
    const connectionsBefore = fixture.proxy.totalConnections;
    fixture.proxy.cut();
    await reconnected;
    expect(fixture.proxy.totalConnections).toBeGreaterThan(connectionsBefore);
    expect([viaOption.sessionId, viaAddAuth.sessionId]).toEqual(sessions);
    for (const zk of [viaOption, viaAddAuth]) {
      expect((await zk.getData('/reauth')).data.toString()).toBe('still mine');
      expect(await zk.whoAmI()).toContainEqual({ authScheme: 'digest', user: BOB.user });
    }
  });
});

describe('refused credentials', () => {
  it('an unknown scheme fails with AUTHFAILED, the session goes on, and no credential shows in errors or output', async () => {
    const secret = 'do-not-print-me-42';
    let shown = '';
    const output = await captureOutput(async () => {
      const zk = await client();
      const session = zk.sessionId;
      const reconnected = nextState(zk, 'reconnected');
      const error = await rejectionOf(zk.addAuth('no-such-scheme', `${BOB.user}:${secret}`));
      expect(error.code).toBe('AUTHFAILED');
      shown = everythingShown(error);
      // The server closes the connection; the client drops the refused credential and carries on.
      await reconnected;
      expect(zk.sessionId).toBe(session);
      expect(await zk.exists('/')).not.toBeNull();
    });
    expectNoSecrets(`${shown}\n${output}`, [secret]);
  });
});

describe('SASL against a server without SASL', () => {
  it('fails with AUTHFAILED saying the server has no SASL configured (NOT_CONFIGURED)', async () => {
    const attempt = connect(
      {
        connectString: fixture.server.connectString,
        sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: 'sasl-pw-unused' },
      },
      { timeoutMs: 15_000 },
    );
    const error = await rejectionOf(attempt);
    expect(error.code).toBe('AUTHFAILED');
    const saslError = isSaslAuthenticationError(error) ? error : error.cause;
    expect(isSaslAuthenticationError(saslError), String(error)).toBe(true);
    expect((saslError as SaslAuthenticationError).reason).toBe(SaslFailure.NOT_CONFIGURED);
    expectNoSecrets(everythingShown(error), ['sasl-pw-unused']);
  });
});
