import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as tlsConnect } from 'node:tls';
import { fourLetterWord, parseMode } from '../four-letter-word.js';
import { freePorts } from '../free-port.js';
import { JvmProcess } from '../jvm-process.js';
import { makeTestCertificates, type TestCertificates } from './certificates.js';
import { jaasServerConfig } from './jaas.js';
import { secureServerClasspath } from './secure-classpath.js';

/** Whether the TLS port asks for a client certificate (`ssl.clientAuth`). */
export type ClientAuthMode = 'need' | 'want' | 'none';

/** Options of {@link startSecureZooKeeper}. */
export interface SecureZooKeeperOptions {
  /** Serve a TLS client port (default true). The plaintext port is always served too. */
  tls?: boolean;
  /** Certificates to use; default a fresh set from {@link makeTestCertificates}. */
  certificates?: TestCertificates;
  /** `ssl.clientAuth` of the TLS port (default 'need', the server's default). */
  clientAuth?: ClientAuthMode;
  /** Also allow TLS 1.3 (the server offers only TLS 1.2 by default, security-setup.md §2.2). */
  tls13?: boolean;
  /**
   * SASL DIGEST-MD5 users (name → password) written into a JAAS `Server` section; omit for no SASL.
   * The `sasl` auth provider is registered so that `sasl:<user>` ACLs and whoAmI work.
   */
  saslUsers?: Record<string, string>;
  /** `zookeeper.DigestAuthenticationProvider.superDigest` (`super:<base64 sha1>`), for a digest superuser. */
  superDigest?: string;
  /** Extra zoo.cfg lines. */
  config?: Record<string, string | number>;
  /** Extra JVM flags. */
  jvmFlags?: string[];
  /** Heap in MiB (default 128). */
  heapMb?: number;
}

/** A standalone ZooKeeper with a plaintext port and (by default) a TLS port, started by {@link startSecureZooKeeper}. */
export interface SecureZooKeeperServer extends AsyncDisposable {
  host: string;
  /** Plaintext client port. */
  port: number;
  /** TLS client port (undefined when started with `tls: false`). */
  securePort: number | undefined;
  /** `127.0.0.1:<port>`. */
  connectString: string;
  /** `127.0.0.1:<securePort>` (empty when there is no TLS port). */
  secureConnectString: string;
  /** The certificates the server uses (and clients may use). */
  certificates: TestCertificates | undefined;
  dir: string;
  dataDir: string;
  pid: number | undefined;
  /** Graceful stop (SIGTERM). Keeps the data directory. */
  stop(): Promise<void>;
  /** SIGKILL. */
  kill(): Promise<void>;
  /** Starts again on the same ports with the same data, and waits until it serves. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** The server log (for asserting what the server did, or did not, write). */
  readLog(): Promise<string>;
  fourLetterWord(command: string): Promise<string>;
  /** Stops the server and removes its directory (with the certificates it made; not ones passed in). */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/* A full handshake with the client certificate, so a server whose keystore cannot be read fails at start. */
function tlsHandshakes(host: string, port: number, certificates: TestCertificates): Promise<boolean> {
  return new Promise((resolve) => {
    const { ca, client } = certificates;
    const socket = tlsConnect({ host, port, ca: ca.cert, cert: client.cert, key: client.key });
    socket.once('secureConnect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function zooCfg(lines: Record<string, string | number | undefined>): string {
  return `${Object.entries(lines)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;
}

/**
 * Starts a real standalone ZooKeeper (security-setup.md §2) with the Netty connection factory, a TLS client
 * port (keystore and truststore from test-time certificates), and optionally a JAAS `Server` section for SASL
 * DIGEST-MD5. Resolves once `srvr` reports a mode and the TLS port accepts connections.
 */
export async function startSecureZooKeeper(
  options: SecureZooKeeperOptions = {},
): Promise<SecureZooKeeperServer> {
  const host = '127.0.0.1';
  const tls = options.tls ?? true;
  const dir = await mkdtemp(join(tmpdir(), 'zkwire-secure-'));
  const dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const certificates = tls
    ? (options.certificates ?? (await makeTestCertificates({ dir: join(dir, 'certs') })))
    : undefined;
  const ports = await freePorts(2, host);
  const port = ports[0]!;
  const securePort = tls ? ports[1] : undefined;

  const cfg: Record<string, string | number | undefined> = {
    tickTime: 2000,
    dataDir,
    clientPortAddress: host,
    clientPort: port,
    'admin.enableServer': 'false',
    '4lw.commands.whitelist': '*',
    maxClientCnxns: 0,
    serverCnxnFactory: 'org.apache.zookeeper.server.NettyServerCnxnFactory',
  };
  if (certificates && securePort !== undefined) {
    Object.assign(cfg, {
      secureClientPortAddress: host,
      secureClientPort: securePort,
      'ssl.keyStore.location': certificates.server.p12File,
      'ssl.keyStore.password': certificates.password,
      'ssl.trustStore.location': certificates.truststoreP12File,
      'ssl.trustStore.password': certificates.password,
      'ssl.clientAuth': options.clientAuth ?? 'need',
    });
    if (options.tls13) {
      Object.assign(cfg, {
        'ssl.protocol': 'TLSv1.3',
        'ssl.enabledProtocols': 'TLSv1.3,TLSv1.2',
        'ssl.ciphersuites':
          'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      });
    }
  }
  const jvmFlags = [`-Xmx${options.heapMb ?? 128}m`, '-XX:+UseSerialGC', ...(options.jvmFlags ?? [])];
  if (options.saslUsers) {
    cfg['authProvider.sasl'] = 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider';
    const jaasFile = join(dir, 'jaas-server.conf');
    await writeFile(jaasFile, jaasServerConfig(options.saslUsers));
    jvmFlags.push(`-Djava.security.auth.login.config=${jaasFile}`);
  }
  if (options.superDigest)
    jvmFlags.push(`-Dzookeeper.DigestAuthenticationProvider.superDigest=${options.superDigest}`);
  Object.assign(cfg, options.config ?? {});
  const configFile = join(dir, 'zoo.cfg');
  await writeFile(configFile, zooCfg(cfg));

  const logFile = join(dir, 'server.log');
  const jvm = new JvmProcess({
    classpath: secureServerClasspath(),
    mainClass: 'org.apache.zookeeper.server.ZooKeeperServerMain',
    args: [configFile],
    jvmFlags,
    logFile,
  });

  async function waitUntilServing(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!jvm.running) break;
      const answer = await fourLetterWord(host, port, 'srvr', { timeoutMs: 500 }).catch(() => '');
      if (parseMode(answer) && (!certificates || (await tlsHandshakes(host, securePort!, certificates)))) return;
      await sleep(50);
    }
    const why = jvm.running ? `not serving (plaintext srvr and a TLS handshake) after ${READY_TIMEOUT_MS} ms` : 'the JVM exited';
    throw new Error(`secure ZooKeeper on ${host}:${port}: ${why}\n${jvm.logTail()}`);
  }

  async function start(): Promise<void> {
    jvm.start();
    try {
      await waitUntilServing();
    } catch (error) {
      await jvm.kill();
      throw error;
    }
  }

  async function close(): Promise<void> {
    await jvm.stop();
    await rm(dir, { recursive: true, force: true });
  }

  await start();
  return {
    host,
    port,
    securePort,
    connectString: `${host}:${port}`,
    secureConnectString: securePort === undefined ? '' : `${host}:${securePort}`,
    certificates,
    dir,
    dataDir,
    get pid() {
      return jvm.pid;
    },
    stop: () => jvm.stop(),
    kill: () => jvm.kill(),
    start,
    async restart() {
      await jvm.stop();
      await start();
    },
    readLog: () => readFile(logFile, 'utf8'),
    fourLetterWord: (command) => fourLetterWord(host, port, command),
    close,
    [Symbol.asyncDispose]: close,
  };
}
