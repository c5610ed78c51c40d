/**
 * The server the contenders share: an embedded standalone ZooKeeper from @zkwire/testing (pinned to core 0
 * where taskset exists), or the one named by --connect.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { type CpuQuota, limitCpu } from './cpu-quota.js';

/** The server as the run sees it. */
export interface BenchServer {
  connectString: string;
  /** "embedded ZooKeeper 3.8.0 (standalone, forceSync=no)" or "external 10.0.0.1:2181" */
  description: string;
  version: string;
  /** what was pinned where, or why nothing was */
  pinning: string;
  /** the command prefix for client processes ([] when not pinned) */
  clientPrefix: string[];
  stop(): Promise<void>;
}

/** True when `taskset` runs here and the machine has at least two cores. */
function canPin(): boolean {
  if (cpus().length < 2) return false;
  return spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** The share of one core `--slow-server` leaves the server. */
const SLOW_SERVER_SHARE = 0.5;

/**
 * `--fast-server`: no NIO worker threads, so the selector thread reads and parses requests itself. By
 * default the server starts 2 per core it sees (4 on a 2-core machine) and hands each request from the
 * selector to a worker; pinned to one core, those hand-offs are context switches that cost more than the
 * work (on an Intel Xeon, 2 cores: about 45,000 getData a second with them, 100,000–150,000 without).
 */
const FAST_SERVER_FLAGS = ['-Dzookeeper.nio.numWorkerThreads=0'];

function versionFrom(srvr: string): string {
  return /Zookeeper version: ([^\s,-]+)/.exec(srvr)?.[1] ?? 'unknown';
}

/** Starts (or names) the server and decides the pinning. */
export async function openServer(options: {
  connect?: string;
  pin: boolean;
  slowServer?: boolean;
  fastServer?: boolean;
  /** the embedded server's JVM heap (default 128 MiB; the memory scenario's 100,000 watched nodes need more) */
  heapMb?: number;
}): Promise<BenchServer> {
  const testing = await import('@zkwire/testing');
  const pin = options.pin && canPin();
  const clientPrefix = pin ? ['taskset', '-c', '1'] : [];
  if (options.connect) {
    const [host = '127.0.0.1', port = '2181'] = options.connect.split(':');
    const srvr = await testing.fourLetterWord(host, Number(port), 'srvr').catch(() => '');
    return {
      connectString: options.connect,
      description: `external server ${options.connect}`,
      version: versionFrom(srvr),
      pinning: pin ? 'clients pinned to core 1 (taskset); the external server is not pinned' : 'not pinned',
      clientPrefix,
      stop: async () => {},
    };
  }
  const heapMb = options.heapMb ?? 128;
  const server = await testing.startZooKeeper({
    heapMb,
    ...(options.fastServer ? { jvmFlags: FAST_SERVER_FLAGS } : {}),
  });
  let pinning = 'not pinned (no taskset, fewer than 2 cores, or --no-pin)';
  if (pin && server.pid !== undefined) {
    // -a: every thread of the JVM, including those started before this call
    const result = spawnSync('taskset', ['-a', '-cp', '0', String(server.pid)], { stdio: 'ignore' });
    pinning =
      result.status === 0
        ? 'server JVM pinned to core 0, client processes to core 1 (taskset)'
        : 'clients pinned to core 1; pinning the server failed';
  }
  let quota: CpuQuota | undefined;
  if (options.slowServer) {
    if (server.pid === undefined) throw new Error('--slow-server: the embedded server has no pid');
    quota = limitCpu(server.pid, SLOW_SERVER_SHARE);
    pinning += `; the server JVM is held to ${SLOW_SERVER_SHARE * 100}% of one core (--slow-server, ${quota.path})`;
  }
  const srvr = await server.fourLetterWord('srvr').catch(() => '');
  return {
    connectString: server.connectString,
    description: `embedded standalone ZooKeeper (@zkwire/testing: -Xmx${heapMb}m, SerialGC, forceSync=no${
      options.fastServer ? ', no NIO worker threads (--fast-server)' : ''
    })`,
    version: versionFrom(srvr),
    pinning,
    clientPrefix,
    stop: async () => {
      await server[Symbol.asyncDispose]();
      quota?.release();
    },
  };
}
