/**
 * The security flags against a real TLS + SASL server: a client certificate given by flags (and by
 * ZKWIRE_TLS_* variables) connects over TLS and is the session's x509 identity; SASL DIGEST-MD5 credentials
 * from the environment give a sasl identity; a wrong password fails with exit code 1, and no secret is ever
 * printed.
 */
import { type SecureZooKeeperServer, startSecureZooKeeper } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type CliBundle, runCli } from './helpers/cli-bundle.js';

const SASL_PASSWORD = 'bob-sasl-pw-314';
let server: SecureZooKeeperServer | undefined;
let bundle: CliBundle | undefined;

beforeAll(async () => {
  [server, bundle] = await Promise.all([
    startSecureZooKeeper({ saslUsers: { bob: SASL_PASSWORD } }),
    buildCli(),
  ]);
});

afterAll(async () => {
  await server?.close();
  bundle?.remove();
});

describe('security flags', () => {
  it('TLS with a client certificate from flags, and from ZKWIRE_TLS_* variables: an x509 identity', async () => {
    const secure = server as SecureZooKeeperServer;
    const certificates = secure.certificates;
    if (!certificates) throw new Error('the secure server has no certificates');
    const [viaFlags, viaEnv] = await Promise.all([
      runCli(bundle as CliBundle, [
        '-s',
        secure.secureConnectString,
        '--tls-ca',
        certificates.ca.certFile,
        '--tls-cert',
        certificates.client.certFile,
        '--tls-key',
        certificates.client.keyFile,
        'whoami',
      ]),
      runCli(bundle as CliBundle, ['-s', secure.secureConnectString, 'whoami', '--json'], {
        env: {
          ZKWIRE_TLS_CA: certificates.ca.certFile,
          ZKWIRE_TLS_PFX: certificates.client.p12File,
          ZKWIRE_TLS_PASSPHRASE: certificates.password,
        },
      }),
    ]);
    expect(viaFlags.code, viaFlags.stderr).toBe(0);
    expect(viaFlags.stdout).toContain(`x509: ${certificates.clientX509Id}\n`);
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(JSON.parse(viaEnv.stdout).identities).toContainEqual({
      authScheme: 'x509',
      user: certificates.clientX509Id,
    });
    expect(viaEnv.stdout + viaEnv.stderr).not.toContain(certificates.password);
  });

  it('SASL credentials from the environment; a wrong password is exit code 1, never printed', async () => {
    const secure = server as SecureZooKeeperServer;
    const [ok, wrong] = await Promise.all([
      runCli(bundle as CliBundle, ['-s', secure.connectString, 'whoami'], {
        env: { ZKWIRE_SASL_USER: 'bob', ZKWIRE_SASL_PASSWORD: SASL_PASSWORD },
      }),
      runCli(bundle as CliBundle, ['-s', secure.connectString, '--connect-timeout', '10000', 'whoami'], {
        env: { ZKWIRE_SASL_USER: 'bob', ZKWIRE_SASL_PASSWORD: 'not-the-password-271' },
      }),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('sasl: bob\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^AUTHFAILED: /);
    for (const run of [ok, wrong]) {
      expect(run.stdout + run.stderr).not.toContain(SASL_PASSWORD);
      expect(run.stdout + run.stderr).not.toContain('not-the-password-271');
    }
  });
});
