import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../server.js';

const run = promisify(execFile);

/** A key pair and certificate as PEM files, with their contents loaded for `node:tls`. */
export interface CertificateFiles {
  /** Path of the certificate (PEM). */
  certFile: string;
  /** Path of the unencrypted private key (PEM, PKCS#8). */
  keyFile: string;
  /** PKCS#12 keystore holding key, certificate and CA certificate (password {@link TestCertificates.password}). */
  p12File: string;
  cert: Buffer;
  key: Buffer;
}

/** Certificates made at test time by {@link makeTestCertificates}. Nothing here is secret beyond the test run. */
export interface TestCertificates {
  dir: string;
  /** Password of every PKCS#12 / JKS store. */
  password: string;
  /** The CA that signed the server and the client certificates. */
  ca: { certFile: string; cert: Buffer };
  /** PKCS#12 and JKS truststores holding only the CA (made with the JDK's keytool). */
  truststoreP12File: string;
  truststoreJksFile: string;
  /** Server certificate: CN=localhost, SAN DNS:localhost and IP:127.0.0.1. */
  server: CertificateFiles;
  /** Client certificate signed by the CA; {@link TestCertificates.clientX509Id} is its ZooKeeper x509 id. */
  client: CertificateFiles;
  /** The id the server gives a connection that presents the client certificate (RFC 2253 subject). */
  clientX509Id: string;
  /** A second, unrelated CA and a client certificate it signed: trusted by nobody. */
  rogueCa: { certFile: string; cert: Buffer };
  rogueClient: CertificateFiles;
}

/** What {@link makeTestCertificates} may be told. */
export interface MakeCertificatesOptions {
  /** Directory to write into (created); default a fresh temp dir, removed when the process exits. */
  dir?: string;
  /** Client certificate subject in openssl `-subj` form; default `/O=Test/OU=clients/CN=alice`. */
  clientSubject?: string;
  /** Subject alternative names of the server certificate; default `DNS:localhost,IP:127.0.0.1`. */
  serverAltNames?: string;
}

async function openssl(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('openssl', args, { cwd });
    return stdout;
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed (is the openssl package installed?): ${String(error)}`, {
      cause: error,
    });
  }
}

async function keytool(cwd: string, args: string[]): Promise<void> {
  try {
    await run('keytool', args, { cwd });
  } catch (error) {
    throw new Error(
      `keytool failed (it ships with the JDK: apt-get install default-jdk-headless): ${error}`,
      {
        cause: error,
      },
    );
  }
}

async function makeCa(
  dir: string,
  name: string,
  commonName: string,
): Promise<{ certFile: string; cert: Buffer }> {
  await openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '3650',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const certFile = join(dir, `${name}.pem`);
  return { certFile, cert: await readFile(certFile) };
}

async function makeLeaf(
  dir: string,
  name: string,
  caName: string,
  subject: string,
  extensions: string,
  password: string,
): Promise<CertificateFiles> {
  await openssl(
    dir,
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`].concat([
      '-subj',
      subject,
    ]),
  );
  await writeFile(join(dir, `${name}.ext`), extensions);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${caName}.pem`,
    '-CAkey',
    `${caName}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '3650',
    '-extfile',
    `${name}.ext`,
  ]);
  await openssl(dir, [
    'pkcs12',
    '-export',
    '-in',
    `${name}.pem`,
    '-inkey',
    `${name}.key`,
    '-certfile',
    `${caName}.pem`,
    '-name',
    name,
    '-out',
    `${name}.p12`,
    '-passout',
    `pass:${password}`,
  ]);
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}.key`);
  return {
    certFile,
    keyFile,
    p12File: join(dir, `${name}.p12`),
    cert: await readFile(certFile),
    key: await readFile(keyFile),
  };
}

const SERVER_EXT = (altNames: string) =>
  'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
  `extendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=${altNames}\n`;
const CLIENT_EXT =
  'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n';

/**
 * Makes a throw-away PKI for TLS tests with openssl (keys, certificates, PKCS#12 keystores) and the JDK's
 * keytool (truststores), as in security-setup.md §1: a CA, a server certificate for localhost/127.0.0.1, a
 * client certificate, and a rogue CA with a client certificate that no one trusts.
 */
export async function makeTestCertificates(options: MakeCertificatesOptions = {}): Promise<TestCertificates> {
  const dir = options.dir ?? makeTempDir('zkwire-certs-');
  await mkdir(dir, { recursive: true });
  const password = 'changeit';
  const ca = await makeCa(dir, 'ca', 'zkwire test CA');
  const rogueCa = await makeCa(dir, 'rogue-ca', 'zkwire rogue CA');
  const server = await makeLeaf(
    dir,
    'server',
    'ca',
    '/CN=localhost',
    SERVER_EXT(options.serverAltNames ?? 'DNS:localhost,IP:127.0.0.1'),
    password,
  );
  const clientSubject = options.clientSubject ?? '/O=Test/OU=clients/CN=alice';
  const client = await makeLeaf(dir, 'client', 'ca', clientSubject, CLIENT_EXT, password);
  const rogueClient = await makeLeaf(dir, 'rogue-client', 'rogue-ca', clientSubject, CLIENT_EXT, password);
  for (const [file, type] of [
    ['truststore.p12', 'PKCS12'],
    ['truststore.jks', 'JKS'],
  ] as const) {
    await keytool(
      dir,
      ['-importcert', '-noprompt', '-alias', 'ca', '-file', 'ca.pem', '-keystore', file].concat([
        '-storetype',
        type,
        '-storepass',
        password,
      ]),
    );
  }
  // ZooKeeper names the client by X500Principal.getName(), which is the RFC 2253 form openssl prints here.
  const subjectLine = await openssl(dir, [
    'x509',
    '-in',
    'client.pem',
    '-noout',
    '-subject',
    '-nameopt',
    'RFC2253',
  ]);
  const clientX509Id = subjectLine.trim().replace(/^subject=\s*/, '');
  return {
    dir,
    password,
    ca,
    truststoreP12File: join(dir, 'truststore.p12'),
    truststoreJksFile: join(dir, 'truststore.jks'),
    server,
    client,
    clientX509Id,
    rogueCa,
    rogueClient,
  };
}
