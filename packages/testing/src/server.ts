import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fourLetterWord, parseMode, type ServerMode } from './four-letter-word.js';
import { freePort } from './free-port.js';
import { JvmProcess } from './jvm-process.js';
import { forgetOnExit, removeOnExit } from './process-cleanup.js';
import { findZooKeeper } from './releases/zookeeper-release.js';
import { baseConfig, baseJvmFlags, writeZooCfg, type ZooCfg } from './zoo-cfg.js';

/** A real ZooKeeper server process on 127.0.0.1 (standalone, or one member of an ensemble). */
export interface ZooKeeperServer extends AsyncDisposable {
  /** Always 127.0.0.1. */
  readonly host: string;
  /** The ZooKeeper release this server runs (`3.9.5`, or Debian's `3.8.0`). */
  readonly version: string;
  /** The client port; kept across restarts. */
  readonly port: number;
  /** `host:port`. */
  readonly connectString: string;
  /** The server's data directory (snapshots, transaction logs); kept across restarts. */
  readonly dataDir: string;
  /** The temp directory holding zoo.cfg, the data dir and `server.log`; removed on dispose. */
  readonly dir: string;
  /** The JVM's PID while running. */
  readonly pid: number | undefined;
  /** True while the JVM runs (serving or not). */
  readonly running: boolean;
  /** Graceful stop (SIGTERM); resolves once the JVM has exited. */
  stop(): Promise<void>;
  /** Crash (SIGKILL); resolves once the JVM has exited. */
  kill(): Promise<void>;
  /** Starts the stopped server on the same port and data; resolves once it is serving. */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  /** Sends a four-letter word to this server and returns the answer. */
  fourLetterWord(command: string): Promise<string>;
  /** The `Mode:` that `srvr` reports now, or undefined while not serving (or not running). */
  mode(): Promise<ServerMode | undefined>;
  /** The last lines of the server's log (stdout and stderr). */
  logTail(lines?: number): string;
}

/** Options of {@link startZooKeeper}. */
export interface StartZooKeeperOptions {
  /**
   * The ZooKeeper release to run: `3.9.5` (the default, or `ZKWIRE_ZK_VERSION`), any released `x.y.z` (fetched
   * once from Maven Central), `debian` (Debian's 3.8.0) or `home` (`$ZOOKEEPER_HOME`).
   */
  version?: string;
  /** Extra JVM flags, e.g. `-Dzookeeper.extendedTypesEnabled=true`, `-Dreadonlymode.enabled=true`. */
  jvmFlags?: string[];
  /** Extra or overriding zoo.cfg entries, e.g. `{ localSessionsEnabled: true, maxSessionTimeout: 60000 }`. */
  config?: ZooCfg;
  /** zoo.cfg tickTime in ms (default 2000: session timeouts from 4 s to 40 s). */
  tickTime?: number;
  /** JVM heap in MiB (default 128). */
  heapMb?: number;
  /** Extra classpath entries (e.g. netty-codec.jar for TLS). */
  classpath?: string[];
  /** How long to wait for `srvr` to report a `Mode:` (default 60000 ms). */
  startTimeoutMs?: number;
}

const HOST = '127.0.0.1';
const STANDALONE_MAIN = 'org.apache.zookeeper.server.ZooKeeperServerMain';
const BIND_ATTEMPTS = 4;

/** Thrown when a server does not become ready; carries the tail of its log. */
export class ZooKeeperStartError extends Error {
  override readonly name = 'ZooKeeperStartError';
}

/** What a {@link ZooKeeperServerProcess} runs. */
export interface ServerLaunch {
  dir: string;
  dataDir: string;
  port: number;
  mainClass: string;
  classpath: string[];
  /** The ZooKeeper release on the classpath. */
  version: string;
  jvmFlags: string[];
  startTimeoutMs: number;
  /** Whether dispose removes `dir` (an ensemble removes its own root instead). */
  ownsDir: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A ZooKeeper JVM plus its readiness check. Exported for the ensemble; tests use {@link ZooKeeperServer}. */
export class ZooKeeperServerProcess implements ZooKeeperServer {
  readonly host = HOST;
  private readonly jvm: JvmProcess;

  constructor(private readonly launch: ServerLaunch) {
    this.jvm = new JvmProcess({
      classpath: launch.classpath,
      mainClass: launch.mainClass,
      args: [join(launch.dir, 'zoo.cfg')],
      jvmFlags: launch.jvmFlags,
      logFile: join(launch.dir, 'server.log'),
    });
  }

  get version(): string {
    return this.launch.version;
  }
  get port(): number {
    return this.launch.port;
  }
  get connectString(): string {
    return `${HOST}:${this.launch.port}`;
  }
  get dataDir(): string {
    return this.launch.dataDir;
  }
  get dir(): string {
    return this.launch.dir;
  }
  get pid(): number | undefined {
    return this.jvm.pid;
  }
  get running(): boolean {
    return this.jvm.running;
  }

  /** Spawns the JVM without waiting for it to serve. */
  launchJvm(): void {
    this.jvm.start();
  }

  /**
   * Polls `srvr` until it reports a `Mode:` accepted by `ready` (any mode by default). Rejects with the log
   * tail if the JVM exits or the timeout passes.
   */
  async waitServing(ready: (mode: ServerMode) => boolean = () => true): Promise<ServerMode> {
    const deadline = Date.now() + this.launch.startTimeoutMs;
    let exited = false;
    void this.jvm.waitExit().then(() => {
      exited = true;
    });
    while (Date.now() < deadline) {
      if (exited || !this.jvm.running) {
        throw new ZooKeeperStartError(
          `ZooKeeper on ${this.connectString} exited while starting. Log tail:\n${this.logTail()}`,
        );
      }
      const mode = await this.mode();
      if (mode !== undefined && ready(mode)) return mode;
      await sleep(50);
    }
    throw new ZooKeeperStartError(
      `ZooKeeper on ${this.connectString} was not serving after ${this.launch.startTimeoutMs} ms. Log tail:\n${this.logTail()}`,
    );
  }

  async start(): Promise<void> {
    this.launchJvm();
    await this.waitServing();
  }
  stop(): Promise<void> {
    return this.jvm.stop();
  }
  kill(): Promise<void> {
    return this.jvm.kill();
  }
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
  fourLetterWord(command: string): Promise<string> {
    return fourLetterWord(HOST, this.launch.port, command);
  }
  async mode(): Promise<ServerMode | undefined> {
    if (!this.jvm.running) return undefined;
    // A short timeout: a server still loading its database answers but never closes the socket.
    const answer = await fourLetterWord(HOST, this.launch.port, 'srvr', { timeoutMs: 500 }).catch(() => '');
    return parseMode(answer);
  }
  logTail(lines = 30): string {
    return this.jvm.logTail(lines);
  }
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
    if (this.launch.ownsDir) removeTempDir(this.launch.dir);
  }
}

/** A temp directory for one server or ensemble; removed by its owner's dispose, or at process exit. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeOnExit(dir);
  return dir;
}

/** Removes a directory made by {@link makeTempDir}. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  forgetOnExit(dir);
}

/** True when a start failed because the port was taken between our check and the JVM's bind. */
export function isBindFailure(error: unknown, log: string): boolean {
  return error instanceof ZooKeeperStartError && /BindException|Address already in use/.test(log);
}

/**
 * Starts a standalone ZooKeeper server on 127.0.0.1, a free port and a fresh temp data dir, and resolves once
 * it is serving (`srvr` reports `Mode: standalone`). Use `await using zk = await startZooKeeper()`, or call
 * `[Symbol.asyncDispose]()` in `afterAll`: it stops the JVM and removes the temp dir.
 */
export async function startZooKeeper(options: StartZooKeeperOptions = {}): Promise<ZooKeeperServer> {
  const zookeeper = findZooKeeper(options.version);
  for (let attempt = 1; ; attempt++) {
    const dir = makeTempDir('zkwire-zk-');
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const port = await freePort();
    writeZooCfg(join(dir, 'zoo.cfg'), {
      ...baseConfig(dataDir, port, options.tickTime ?? 2000),
      ...options.config,
    });
    const server = new ZooKeeperServerProcess({
      dir,
      dataDir,
      port,
      mainClass: STANDALONE_MAIN,
      classpath: [...zookeeper.classpath, ...(options.classpath ?? [])],
      version: zookeeper.version,
      jvmFlags: [...baseJvmFlags(options.heapMb ?? 128), ...(options.jvmFlags ?? [])],
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      ownsDir: true,
    });
    try {
      await server.start();
      return server;
    } catch (error) {
      const log = server.logTail(200);
      await server[Symbol.asyncDispose]();
      if (attempt < BIND_ATTEMPTS && isBindFailure(error, log)) continue;
      throw error;
    }
  }
}
