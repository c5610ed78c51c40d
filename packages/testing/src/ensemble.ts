import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type MemberPorts,
  membershipOf,
  reconfigStaticConfig,
  SUPER_USER,
  serverLine,
  superDigestFlag,
  writeDynamicConfig,
} from './dynamic-config.js';
import { fourLetterWord, type ServerMode } from './four-letter-word.js';
import { freePorts } from './free-port.js';
import { findZooKeeper } from './releases/zookeeper-release.js';
import {
  isBindFailure,
  makeTempDir,
  removeTempDir,
  type StartZooKeeperOptions,
  type ZooKeeperServer,
  ZooKeeperServerProcess,
  ZooKeeperStartError,
} from './server.js';
import { baseConfig, baseJvmFlags, writeZooCfg } from './zoo-cfg.js';

/** Options of {@link startEnsemble}; the server options apply to every member. */
export interface StartEnsembleOptions extends StartZooKeeperOptions {
  /** Number of members (default 3). */
  size?: number;
  /**
   * Dynamic reconfiguration (default false): `reconfigEnabled=true`, `standaloneEnabled=false`, the
   * membership in a dynamic config file, and a super user ({@link Ensemble.superUser}) who may reconfig.
   * Then {@link Ensemble.addMember} starts a server that a client's reconfig can make join.
   */
  reconfig?: boolean;
}

/** A real ZooKeeper quorum on loopback. Member `i` has myid `i + 1`. */
export interface Ensemble extends AsyncDisposable {
  /** The members, in myid order. */
  readonly members: ZooKeeperServer[];
  /** `host:port` of every member, comma-separated. */
  readonly connectString: string;
  /** Index of the member that `srvr` reports as leader; waits for an election in progress. */
  leader(): Promise<number>;
  /** Resolves once every running member serves as leader or follower, with exactly one leader. */
  waitForQuorum(): Promise<void>;
  /** Graceful stop (SIGTERM) of member `i`. */
  stop(i: number): Promise<void>;
  /** Crash (SIGKILL) of member `i`. */
  kill(i: number): Promise<void>;
  /** Starts member `i`; waits until it serves when a majority of members is then running. */
  start(i: number): Promise<void>;
  /** stop(i) then start(i). */
  restart(i: number): Promise<void>;
  /** Stops every member. */
  stopAll(): Promise<void>;
  /** Starts every stopped member, then waits for quorum. */
  startAll(): Promise<void>;
  /** With `reconfig`: the credentials of the super user, for `addAuth(scheme, credentials)` before reconfig. */
  readonly superUser: { readonly scheme: string; readonly credentials: string } | undefined;
  /**
   * With `reconfig`: member `i`'s line in the configuration,
   * `server.N=127.0.0.1:quorumPort:electionPort:participant;127.0.0.1:clientPort`: what a reconfig's joining
   * list takes (and `server.N`'s id, `N`, is what its leaving list takes).
   */
  serverLine(i: number): string;
  /**
   * With `reconfig`: starts a new server (myid = members.length + 1, fresh ports) whose configuration is the
   * membership a running member reports plus itself, and resolves with its index once it serves (it syncs
   * with the leader as a non-voting follower). It votes once a client's reconfig adds {@link serverLine}.
   */
  addMember(): Promise<number>;
}

const QUORUM_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
const BIND_ATTEMPTS = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const QUORUM_MODES: ReadonlySet<ServerMode> = new Set(['leader', 'follower', 'observer']);

class EnsembleImpl implements Ensemble {
  constructor(
    readonly dir: string,
    private readonly servers: ZooKeeperServerProcess[],
    private readonly timeoutMs: number,
    private readonly options: StartEnsembleOptions,
    /** Each member's ports, with `reconfig` (they make its server line). */
    private readonly ports: MemberPorts[],
  ) {}

  get superUser(): Ensemble['superUser'] {
    return this.options.reconfig ? SUPER_USER : undefined;
  }

  serverLine(i: number): string {
    this.member(i);
    const ports = this.ports[i];
    if (!this.options.reconfig || ports === undefined) {
      throw new Error('serverLine: the ensemble was not started with { reconfig: true }');
    }
    return serverLine(i + 1, ports);
  }

  async addMember(): Promise<number> {
    if (!this.options.reconfig)
      throw new Error('addMember: the ensemble was not started with { reconfig: true }');
    // The leader's membership is the last one committed (a member that left may still run, with an old one).
    const leader = this.member(await this.leader());
    const conf = await fourLetterWord(leader.host, leader.port, 'conf').catch(() => '');
    const membership = membershipOf(conf);
    if (membership.length === 0) {
      throw new ZooKeeperStartError(`addMember: the leader reports no membership:\n${conf}`);
    }
    const index = this.servers.length;
    const [client, quorum, election] = (await freePorts(3)) as [number, number, number];
    const ports = { client, quorum, election };
    const server = launchMember(
      this.dir,
      index,
      ports,
      [...membership, serverLine(index + 1, ports)],
      this.options,
    );
    this.servers.push(server);
    this.ports.push(ports);
    server.launchJvm();
    await server.waitServing();
    return index;
  }

  get members(): ZooKeeperServer[] {
    return this.servers;
  }
  get connectString(): string {
    return this.servers.map((server) => server.connectString).join(',');
  }

  private member(i: number): ZooKeeperServerProcess {
    const server = this.servers[i];
    if (!server) throw new RangeError(`ensemble has no member ${i} (size ${this.servers.length})`);
    return server;
  }

  private hasMajorityRunning(): boolean {
    const running = this.servers.filter((server) => server.running).length;
    return running > this.servers.length / 2;
  }

  private logTails(): string {
    return this.servers.map((server, i) => `--- member ${i} ---\n${server.logTail(15)}`).join('\n');
  }

  async leader(): Promise<number> {
    const deadline = Date.now() + this.timeoutMs;
    while (Date.now() < deadline) {
      const modes = await Promise.all(this.servers.map((server) => server.mode()));
      const index = modes.indexOf('leader');
      if (index >= 0) return index;
      await sleep(50);
    }
    throw new ZooKeeperStartError(`no leader after ${this.timeoutMs} ms\n${this.logTails()}`);
  }

  async waitForQuorum(): Promise<void> {
    if (!this.hasMajorityRunning()) {
      throw new ZooKeeperStartError('waitForQuorum: fewer than a majority of the members are running');
    }
    const running = this.servers.filter((server) => server.running);
    const deadline = Date.now() + this.timeoutMs;
    while (Date.now() < deadline) {
      const modes = await Promise.all(running.map((server) => server.mode()));
      const allServing = modes.every((mode) => mode !== undefined && QUORUM_MODES.has(mode));
      if (allServing && modes.filter((mode) => mode === 'leader').length === 1) return;
      // A member that exits while we wait (a bind failure, a bad config) will not come back by itself.
      if (running.some((server) => !server.running)) {
        throw new ZooKeeperStartError(`a member exited while waiting for quorum\n${this.logTails()}`);
      }
      await sleep(50);
    }
    throw new ZooKeeperStartError(`ensemble has no quorum after ${this.timeoutMs} ms\n${this.logTails()}`);
  }

  stop(i: number): Promise<void> {
    return this.member(i).stop();
  }
  kill(i: number): Promise<void> {
    return this.member(i).kill();
  }
  async start(i: number): Promise<void> {
    const server = this.member(i);
    server.launchJvm();
    if (this.hasMajorityRunning()) await server.waitServing((mode) => QUORUM_MODES.has(mode));
  }
  async restart(i: number): Promise<void> {
    await this.stop(i);
    await this.start(i);
  }
  async stopAll(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.stop()));
  }
  async startAll(): Promise<void> {
    for (const server of this.servers) if (!server.running) server.launchJvm();
    await this.waitForQuorum();
  }
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stopAll();
    removeTempDir(this.dir);
  }
}

async function createEnsemble(options: StartEnsembleOptions): Promise<EnsembleImpl> {
  const size = options.size ?? 3;
  if (!Number.isInteger(size) || size < 1 || size > 254) {
    throw new RangeError(`startEnsemble: size must be an integer from 1 to 254, got ${size}`);
  }
  const dir = makeTempDir('zkwire-ensemble-');
  const free = await freePorts(size * 3);
  const ports = Array.from({ length: size }, (_, i) => ({
    client: free[i] as number,
    quorum: free[size + i] as number,
    election: free[2 * size + i] as number,
  }));
  const lines = options.reconfig
    ? ports.map((p, i) => serverLine(i + 1, p))
    : ports.map((p, i) => `server.${i + 1}=127.0.0.1:${p.quorum}:${p.election}`);
  const servers = ports.map((p, i) => launchMember(dir, i, p, lines, options));
  return new EnsembleImpl(dir, servers, options.startTimeoutMs ?? 60_000, options, ports);
}

/** Writes member `index`'s data dir, myid and config (static, or static plus dynamic), and its process. */
function launchMember(
  dir: string,
  index: number,
  ports: MemberPorts,
  serverLines: readonly string[],
  options: StartEnsembleOptions,
): ZooKeeperServerProcess {
  const zookeeper = findZooKeeper(options.version);
  const memberDir = join(dir, `z${index + 1}`);
  const dataDir = join(memberDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'myid'), `${index + 1}\n`);
  const base = {
    ...baseConfig(dataDir, ports.client, options.tickTime ?? 2000),
    initLimit: 10,
    syncLimit: 5,
  };
  const jvmFlags = [...baseJvmFlags(options.heapMb ?? 128), ...(options.jvmFlags ?? [])];
  if (options.reconfig) {
    const dynamicFile = join(memberDir, 'zoo.cfg.dynamic');
    writeDynamicConfig(dynamicFile, serverLines);
    writeZooCfg(join(memberDir, 'zoo.cfg'), {
      ...reconfigStaticConfig(base, dynamicFile),
      ...options.config,
    });
    jvmFlags.push(superDigestFlag());
  } else {
    const entries = Object.fromEntries(serverLines.map((line) => line.split('=') as [string, string]));
    writeZooCfg(join(memberDir, 'zoo.cfg'), { ...base, ...entries, ...options.config });
  }
  return new ZooKeeperServerProcess({
    dir: memberDir,
    dataDir,
    port: ports.client,
    mainClass: QUORUM_MAIN,
    classpath: [...zookeeper.classpath, ...(options.classpath ?? [])],
    version: zookeeper.version,
    jvmFlags,
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    ownsDir: false,
  });
}

/**
 * Starts a real ZooKeeper quorum on loopback (server-setup.md §2): `size` members (default 3) with free client,
 * quorum and election ports and temp data dirs, and resolves once one member leads and the others follow.
 * Dispose stops every member and removes the temp dirs.
 */
export async function startEnsemble(options: StartEnsembleOptions = {}): Promise<Ensemble> {
  for (let attempt = 1; ; attempt++) {
    const ensemble = await createEnsemble(options);
    try {
      await ensemble.startAll();
      return ensemble;
    } catch (error) {
      const logs = ensemble.members.map((member) => member.logTail(200)).join('\n');
      await ensemble[Symbol.asyncDispose]();
      if (attempt < BIND_ATTEMPTS && isBindFailure(error, logs)) continue;
      throw error;
    }
  }
}
