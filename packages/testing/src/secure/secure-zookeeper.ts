import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as tlsConnect } from 'node:tls';
import { fourLetterWord, parseMode } from '../four-letter-word.js';
import { freePorts } from '../free-port.js';
import { JvmProcess } from '../jvm-process.js';
import { makeTempDir, removeTempDir } from '../server.js';
import { makeTestCertificates, type TestCertificates } from './certificates.js';
import { jaasServerConfig } from './jaas.js';
import { secureServerClasspath } from './secure-classpath.js';
import {
  jaasFileIn,
  type SecureLayout,
  type SecureZooKeeperOptions,
  secureJvmFlags,
  secureZooCfg,
} from './secure-config.js';

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
const BIND_ATTEMPTS = 3;

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

/** One JVM on fixed ports; start() waits until `srvr` reports a mode and (with TLS) a handshake succeeds. */
function secureServerProcess(options: SecureZooKeeperOptions, layout: SecureLayout, configFile: string) {
  const logFile = join(layout.dir, 'server.log');
  const jvm = new JvmProcess({
    classpath: secureServerClasspath(options.version),
    mainClass: 'org.apache.zookeeper.server.ZooKeeperServerMain',
    args: [configFile],
    jvmFlags: secureJvmFlags(options, layout),
    logFile,
  });
  const { host, port, securePort, certificates } = layout;

  async function waitUntilServing(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline && jvm.running) {
      const answer = await fourLetterWord(host, port, 'srvr', { timeoutMs: 500 }).catch(() => '');
      if (parseMode(answer) && (!certificates || (await tlsHandshakes(host, securePort!, certificates))))
        return;
      await sleep(50);
    }
    const why = jvm.running
      ? `not serving (srvr and a TLS handshake) after ${READY_TIMEOUT_MS} ms`
      : 'the JVM exited';
    throw new Error(`secure ZooKeeper on ${host}:${port}: ${why}\n${jvm.logTail()}`);
  }

  return {
    jvm,
    logFile,
    async start(): Promise<void> {
      jvm.start();
      try {
        await waitUntilServing();
      } catch (error) {
        await jvm.kill();
        throw error;
      }
    },
  };
}

/**
 * Starts a real standalone ZooKeeper (security-setup.md §2) with the Netty connection factory, a TLS client
 * port (keystore and truststore from test-time certificates), and optionally a JAAS `Server` section for SASL
 * DIGEST-MD5. Resolves once it serves; retries on fresh ports when a port was taken before the JVM bound it.
 */
export async function startSecureZooKeeper(
  options: SecureZooKeeperOptions = {},
): Promise<SecureZooKeeperServer> {
  const host = '127.0.0.1';
  const dir = makeTempDir('zkwire-secure-');
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const tls = options.tls ?? true;
  const certificates = tls
    ? (options.certificates ?? (await makeTestCertificates({ dir: join(dir, 'certs') })))
    : undefined;
  const jaasFile = options.saslUsers ? jaasFileIn(dir) : undefined;
  if (jaasFile && options.saslUsers) await writeFile(jaasFile, jaasServerConfig(options.saslUsers));
  const configFile = join(dir, 'zoo.cfg');

  for (let attempt = 1; ; attempt++) {
    const [port, tlsPort] = (await freePorts(2, host)) as [number, number];
    const layout: SecureLayout = {
      dir,
      dataDir,
      host,
      port,
      securePort: tls ? tlsPort : undefined,
      certificates,
      jaasFile,
    };
    await writeFile(configFile, secureZooCfg(options, layout));
    const server = secureServerProcess(options, layout, configFile);
    try {
      await server.start();
    } catch (error) {
      const log = await readFile(server.logFile, 'utf8').catch(() => '');
      if (attempt < BIND_ATTEMPTS && /BindException|Address already in use/.test(log)) continue;
      removeTempDir(dir);
      throw error;
    }
    return handle(layout, server);
  }
}

function handle(layout: SecureLayout, server: ReturnType<typeof secureServerProcess>): SecureZooKeeperServer {
  const { host, port, securePort, jvm } = { ...layout, jvm: server.jvm };
  async function close(): Promise<void> {
    await jvm.stop();
    removeTempDir(layout.dir);
  }
  return {
    host,
    port,
    securePort,
    connectString: `${host}:${port}`,
    secureConnectString: securePort === undefined ? '' : `${host}:${securePort}`,
    certificates: layout.certificates,
    dir: layout.dir,
    dataDir: layout.dataDir,
    get pid() {
      return jvm.pid;
    },
    stop: () => jvm.stop(),
    kill: () => jvm.kill(),
    start: () => server.start(),
    async restart() {
      await jvm.stop();
      await server.start();
    },
    readLog: () => readFile(server.logFile, 'utf8'),
    fourLetterWord: (command) => fourLetterWord(host, port, command),
    close,
    [Symbol.asyncDispose]: close,
  };
}
