/*
 * TLS and x509 against a real ZooKeeper with a secure client port (Netty, ssl.clientAuth=need), certificates
 * made at test time. One server for the whole file.
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import {
  nextState,
  type SecureZooKeeperServer,
  startFaultProxy,
  startSecureZooKeeper,
} from '@zkwire/testing';
import {
  acls,
  ClientClosedError,
  type ClientOptions,
  connect,
  createClient,
  isNoAuth,
  isTlsError,
  Perms,
  TlsFailure,
  x509Acl,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from './faults-helpers.js';
import { everythingShown, expectNoSecrets, rejectionOf } from './security-helpers.js';

let server: SecureZooKeeperServer;
const clients: ZooKeeperClient[] = [];

beforeAll(async () => {
  server = await startSecureZooKeeper();
});

afterAll(async () => {
  await Promise.allSettled(clients.map((zk) => zk.close()));
  await server?.close();
});

function certs() {
  return server.certificates!;
}

/** The trusted CA and the client certificate: what a correctly configured client has. */
function goodTls(): ConnectionOptions {
  return { ca: certs().ca.cert, cert: certs().client.cert, key: certs().client.key };
}

async function tlsClient(tls = goodTls()): Promise<ZooKeeperClient> {
  const zk = await connect({ connectString: server.secureConnectString, sessionTimeoutMs: 20_000, tls });
  clients.push(zk);
  return zk;
}

/** Connects with bad TLS settings; the connect must fail with a TlsError within a bounded wait. */
async function refusedConnect(tls: ClientOptions['tls'], connectString = server.secureConnectString) {
  const attempt = connect({ connectString, sessionTimeoutMs: 20_000, tls }, { timeoutMs: 15_000 });
  const error = await rejectionOf(attempt);
  expect(isTlsError(error), `expected a TlsError, got ${String(error)}`).toBe(true);
  expectNoSecrets(everythingShown(error), [certs().client.key.toString('utf8').split('\n')[1]!]);
  return error;
}

describe('TLS client', () => {
  it('connects with the CA and a client certificate, and works', async () => {
    const zk = await tlsClient();
    expect(zk.state).toBe('connected');
    await zk.create('/over-tls', 'encrypted');
    expect((await zk.getData('/over-tls')).data.toString()).toBe('encrypted');
  });

  it('checks the certificate against servername when given (localhost, reached at 127.0.0.1)', async () => {
    const zk = await tlsClient({ ...goodTls(), servername: 'localhost' });
    expect(await zk.exists('/')).not.toBeNull();
  });

  it('takes the client key and certificate from a PKCS#12 keystore (pfx), as Java deployments have them', async () => {
    const { ca, client, password } = certs();
    const zk = await tlsClient({ ca: ca.cert, pfx: await readFile(client.p12File), passphrase: password });
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'x509', user: certs().clientX509Id });
  });

  it('is named by its certificate subject (x509) in whoAmI', async () => {
    const identities = await (await tlsClient()).whoAmI();
    expect(identities).toContainEqual({ authScheme: 'x509', user: certs().clientX509Id });
    expect(identities).toContainEqual({ authScheme: 'ip', user: '127.0.0.1' });
  });

  it('reconnects to the same session after a server restart, still over TLS and still x509', async () => {
    const zk = await tlsClient();
    await zk.create('/before-restart', 'kept');
    const session = zk.sessionId;
    const reconnected = nextState(zk, 'reconnected');
    await server.restart();
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect((await zk.getData('/before-restart')).data.toString()).toBe('kept');
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'x509', user: certs().clientX509Id });
  });
});

describe('TLS under load', () => {
  it('paces its reads with 1,000 requests in flight (readCoalescing), and every reply reaches its own call', async () => {
    const zk = await tlsClient();
    await zk.create('/tls-load', null);
    await Promise.all(Array.from({ length: 50 }, (_, i) => zk.create(`/tls-load/n${i}`, `value ${i}`)));
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    try {
      let issued = 0;
      let wrong = 0;
      const slot = async () => {
        while (issued < 30_000) {
          const i = issued++ % 50;
          if ((await zk.getData(`/tls-load/n${i}`)).data.toString() !== `value ${i}`) wrong++;
        }
      };
      await Promise.all(Array.from({ length: 1000 }, slot));
      expect(wrong).toBe(0);
      expect(pause.mock.calls.length).toBeGreaterThan(0);
    } finally {
      pause.mockRestore();
    }
  });
});

describe('TLS reconnects', () => {
  it('rides out connections dropped during the TLS handshake (a proxy or a server going down), same session', async () => {
    await using proxy = await startFaultProxy({ host: server.host, port: server.securePort! });
    const zk = await connect({
      connectString: proxy.connectString,
      sessionTimeoutMs: 20_000,
      tls: goodTls(),
    });
    clients.push(zk);
    const session = zk.sessionId;
    const suspended = nextState(zk, 'suspended');
    const reconnected = nextState(zk, 'reconnected');
    // New connections are accepted and closed at once, so every attempt dies mid-handshake for a while.
    proxy.refuse(true);
    proxy.cut();
    await suspended;
    // Long enough for several attempts (the client waits up to 2 s between rounds).
    await new Promise((resolve) => setTimeout(resolve, 4000));
    proxy.refuse(false);
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/')).not.toBeNull();
  });
});

describe('x509 ACLs', () => {
  it('let the certificate holder in and keep a plaintext client out of read, write, delete and ACL changes', async () => {
    const holder = await tlsClient();
    await holder.create('/x509-only', 'for alice', { acl: [x509Acl(certs().clientX509Id)] });
    await holder.create('/x509-only/child', 'c', { acl: [x509Acl(certs().clientX509Id)] });
    expect((await holder.getACL('/x509-only')).acl).toEqual([
      { perms: Perms.ALL, id: { scheme: 'x509', id: certs().clientX509Id } },
    ]);

    const plain = await connect({ connectString: server.connectString, sessionTimeoutMs: 20_000 });
    clients.push(plain);
    for (const call of [
      plain.getData('/x509-only'),
      plain.setData('/x509-only', 'x'),
      plain.create('/x509-only/other', 'x'),
      plain.delete('/x509-only/child'),
      plain.setACL('/x509-only', acls.open()),
    ]) {
      expect(isNoAuth(await rejectionOf(call))).toBe(true);
    }
    await holder.setData('/x509-only', 'v2');
    await holder.delete('/x509-only/child');
    expect((await holder.getData('/x509-only')).data.toString()).toBe('v2');
  });
});

describe('TLS refusals (clear errors, no retry loop)', () => {
  it('refuses a server whose certificate names another host', async () => {
    const error = await refusedConnect({ ...goodTls(), servername: 'zk.example.org' });
    expect(error.reason).toBe(TlsFailure.HOSTNAME_MISMATCH);
    expect(error.message).toMatch(/does not name this server/);
  });

  it('refuses a server whose certificate is not signed by a trusted CA', async () => {
    const error = await refusedConnect({ ...goodTls(), ca: certs().rogueCa.cert });
    expect(error.reason).toBe(TlsFailure.UNTRUSTED_SERVER_CERTIFICATE);
  });

  it('reports that the server wants a client certificate when none is given', async () => {
    const error = await refusedConnect({ ca: certs().ca.cert });
    expect(error.reason).toBe(TlsFailure.CLIENT_CERTIFICATE_REJECTED);
  });

  it('reports that the server refused a client certificate from an unknown CA', async () => {
    const { cert, key } = certs().rogueClient;
    const error = await refusedConnect({ ca: certs().ca.cert, cert, key });
    expect(error.reason).toBe(TlsFailure.CLIENT_CERTIFICATE_REJECTED);
  });

  it('retries, rather than fails, when TLS meets the plaintext port (it hangs up like a proxy would)', async () => {
    const proxy = await startFaultProxy({ host: server.host, port: server.port });
    try {
      const zk = createClient({ connectString: proxy.connectString, tls: goodTls() });
      let outcome: unknown = 'pending';
      const settled = zk.connected().then(
        () => (outcome = 'connected'),
        (error: unknown) => (outcome = error),
      );
      // Each hang-up is followed by a new attempt: the client neither gives up nor connects.
      await until(() => proxy.totalConnections >= 3);
      expect(outcome).toBe('pending');
      expect(zk.state).toBe('connecting');
      await zk.close();
      await settled;
      expect(outcome).toBeInstanceOf(ClientClosedError);
    } finally {
      await proxy.close();
    }
  });

  it('checks the server name by default: a host name the certificate does not name is refused', async () => {
    // The client is told to reach zk.example.org (no servername option); the socket goes to the real server,
    // whose certificate names only localhost and 127.0.0.1.
    const port = server.securePort!;
    const attempt = connect(
      {
        connectString: `zk.example.org:${port}`,
        sessionTimeoutMs: 20_000,
        tls: goodTls(),
        connectionFactory: () => net.connect({ host: '127.0.0.1', port }),
      },
      { timeoutMs: 15_000 },
    );
    const error = await rejectionOf(attempt);
    expect(isTlsError(error), `expected a TlsError, got ${String(error)}`).toBe(true);
    expect(error.reason).toBe(TlsFailure.HOSTNAME_MISMATCH);
    expect(error.message).toMatch(/zk\.example\.org/);
  });

  it('says when client and server share no TLS version (a server that offers only TLS 1.2)', async () => {
    // Releases before 3.9 offer only TLS 1.2 by default, 3.9 offers 1.3 too: this server is told.
    const tls12 = await startSecureZooKeeper({
      certificates: certs(),
      config: { 'ssl.protocol': 'TLSv1.2', 'ssl.enabledProtocols': 'TLSv1.2' },
    });
    try {
      const error = await refusedConnect({ ...goodTls(), minVersion: 'TLSv1.3' }, tls12.secureConnectString);
      expect(error.reason).toBe(TlsFailure.NO_SHARED_PROTOCOL);
    } finally {
      await tls12.close();
    }
  });

  it('refuses an unusable tls option before connecting, naming the field', () => {
    expect(() =>
      createClient({ connectString: server.secureConnectString, tls: { ca: '/etc/zookeeper/ca.pem' } }),
    ).toThrow(/tls\.ca/);
    expect(() =>
      createClient({ connectString: server.secureConnectString, tls: { cert: certs().client.cert } }),
    ).toThrow(/tls\.key/);
  });
});
