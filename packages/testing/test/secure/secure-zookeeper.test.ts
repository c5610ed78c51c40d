import { createHash, randomBytes } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecureZooKeeperServer, startSecureZooKeeper } from '../../src/secure/index.js';
import { juteBuffer, RawSession } from './raw-session.js';

let server: SecureZooKeeperServer;

beforeAll(async () => {
  server = await startSecureZooKeeper({ saslUsers: { bob: 'secret' } });
});
afterAll(async () => {
  await server?.close();
});

function openTls(options: ConnectionOptions): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: server.host, port: server.securePort, ...options }, () =>
      resolve(socket),
    );
    socket.once('error', reject);
  });
}

function openPlain(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: server.host, port: server.port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function clientCert(): ConnectionOptions {
  const certs = server.certificates!;
  return { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key };
}

/** Handshake over TLS, then the next frame: a server that refuses the certificate never gets this far. */
async function tlsSession(options: ConnectionOptions): Promise<RawSession> {
  const socket = await openTls(options);
  const session = new RawSession(socket);
  await session.handshake();
  return session;
}

describe('secure ZooKeeper launcher: TLS port', () => {
  it('serves a TLS session and names the client by its certificate subject (x509)', async () => {
    const certs = server.certificates!;
    const session = await tlsSession({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key });
    try {
      expect(certs.clientX509Id).toBe('CN=alice,OU=clients,O=Test');
      expect(await session.whoAmI()).toContain(`x509:${certs.clientX509Id}`);
    } finally {
      session.socket.destroy();
    }
  });

  it('keeps serving TLS after a restart', async () => {
    await server.restart();
    const certs = server.certificates!;
    const session = await tlsSession({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key });
    session.socket.destroy();
    expect(await server.fourLetterWord('srvr')).toMatch(/Mode: standalone/);
  });

  it('refuses a client without a certificate (ssl.clientAuth=need)', async () => {
    const certs = server.certificates!;
    const outcome = await tlsSession({ ca: certs.ca.cert }).then(
      (session) => session.next(),
      (error: NodeJS.ErrnoException) => error,
    );
    expect(outcome instanceof Error ? outcome.code : outcome).toMatch(/ERR_SSL_/);
  });

  it('refuses a client certificate from an untrusted CA', async () => {
    const certs = server.certificates!;
    const options = { ca: certs.ca.cert, cert: certs.rogueClient.cert, key: certs.rogueClient.key };
    const outcome = await tlsSession(options).then(
      (session) => session.next(),
      (error: NodeJS.ErrnoException) => error,
    );
    expect(outcome instanceof Error ? outcome.code : outcome).toMatch(/ERR_SSL_/);
  });

  it('presents a server certificate that node:tls verifies against the test CA only', async () => {
    const certs = server.certificates!;
    // The server sends its chain with the CA, which the client does not trust.
    const wrongCa = openTls({ ca: certs.rogueCa.cert, cert: certs.client.cert, key: certs.client.key });
    await expect(wrongCa).rejects.toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    const wrongName = openTls({ ...clientCert(), servername: 'zk.example.org' });
    await expect(wrongName).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });
});

const md5 = (data: Buffer | string) => createHash('md5').update(data).digest();

/** RFC 2831 response for qop=auth (security-setup.md §5.3), written out here so the launcher test stands alone. */
function digestResponse(challenge: string, user: string, password: string): string {
  const field = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(challenge)?.[1] ?? '';
  const realm = field('realm');
  const nonce = field('nonce');
  const cnonce = randomBytes(12).toString('base64');
  const uri = 'zookeeper/zk-sasl-md5';
  const a1 = Buffer.concat([md5(`${user}:${realm}:${password}`), Buffer.from(`:${nonce}:${cnonce}`)]);
  const a2 = md5(`AUTHENTICATE:${uri}`).toString('hex');
  const response = md5(`${md5(a1).toString('hex')}:${nonce}:00000001:${cnonce}:auth:${a2}`).toString('hex');
  return `username="${user}",realm="${realm}",nonce="${nonce}",nc=00000001,cnonce="${cnonce}",digest-uri="${uri}",response=${response},qop=auth`;
}

async function saslLogin(user: string, password: string): Promise<{ err: number; session: RawSession }> {
  const session = new RawSession(await openPlain());
  await session.handshake();
  const first = await session.call(102, juteBuffer(Buffer.alloc(0)));
  if (first?.err !== 0) throw new Error(`no SASL challenge: ${first?.err}`);
  const challenge = first.body.subarray(4, 4 + first.body.readInt32BE(0)).toString('utf8');
  expect(challenge).toMatch(/realm="zk-sasl-md5"/);
  const second = await session.call(102, juteBuffer(Buffer.from(digestResponse(challenge, user, password))));
  return { err: second?.err ?? Number.NaN, session };
}

describe('secure ZooKeeper launcher: SASL DIGEST-MD5 (JAAS Server section)', () => {
  it('authenticates a configured user, who then appears as sasl:<user>', async () => {
    const { err, session } = await saslLogin('bob', 'secret');
    try {
      expect(err).toBe(0);
      expect(await session.whoAmI()).toContain('sasl:bob');
    } finally {
      session.socket.destroy();
    }
  });

  it('refuses a wrong password with AUTHFAILED (-115) and closes the connection', async () => {
    const { err, session } = await saslLogin('bob', 'not-the-password');
    expect(err).toBe(-115);
    expect(await session.next()).toBeNull();
  });
});
