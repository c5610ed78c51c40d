/*
 * TLS 1.3 against a ZooKeeper configured for it (security-setup.md §2.2). Under TLS 1.3 the server's refusal
 * of a client certificate arrives after the client's handshake has completed, unlike TLS 1.2: the client must
 * still report it as a refused certificate, not as a lost connection. One server for the whole file.
 */
import { type SecureZooKeeperServer, startSecureZooKeeper } from '@zkwire/testing';
import { connect, isTlsError, TlsFailure, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from './security-helpers.js';

let server: SecureZooKeeperServer;
const clients: ZooKeeperClient[] = [];

beforeAll(async () => {
  server = await startSecureZooKeeper({ tls13: true });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((zk) => zk.close()));
  await server?.close();
});

describe('TLS 1.3', () => {
  it('connects when the client insists on TLS 1.3', async () => {
    const { ca, client } = server.certificates!;
    const zk = await connect({
      connectString: server.secureConnectString,
      tls: { ca: ca.cert, cert: client.cert, key: client.key, minVersion: 'TLSv1.3' },
    });
    clients.push(zk);
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'x509', user: server.certificates!.clientX509Id });
  });

  it.each([
    ['no client certificate', false],
    ['a client certificate from an unknown CA', true],
  ])(
    'reports a refused client certificate (%s) after the handshake as CLIENT_CERTIFICATE_REJECTED',
    async (_n, rogue) => {
      const { ca, rogueClient } = server.certificates!;
      const tls = rogue ? { ca: ca.cert, cert: rogueClient.cert, key: rogueClient.key } : { ca: ca.cert };
      const error = await rejectionOf(
        connect(
          { connectString: server.secureConnectString, tls: { ...tls, minVersion: 'TLSv1.3' } },
          { timeoutMs: 15_000 },
        ),
      );
      expect(isTlsError(error), String(error)).toBe(true);
      expect(error.reason).toBe(TlsFailure.CLIENT_CERTIFICATE_REJECTED);
    },
  );
});
