/**
 * The server the contenders share: an embedded standalone ZooKeeper from @zkwire/testing, or the one named by
 * --connect. Where taskset runs and there are two cores or more, the server is pinned to core 0 and every
 * client process to core 1, so that a client's CPU never slows the server it is measured against.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

export interface BenchServer {
  connectString: string;
  description: string;
  version: string;
  pinning: string;
  /** the command prefix of client processes ([] when not pinned) */
  clientPrefix: string[];
  stop(): Promise<void>;
}

/** The embedded server's accept backlog (see openServer). */
const LISTEN_BACKLOG = 4096;
const canPin = () => cpus().length >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
const versionIn = (srvr: string) => /Zookeeper version: ([^\s,-]+)/.exec(srvr)?.[1] ?? 'unknown';

export async function openServer(options: {
  connect?: string;
  zkVersion?: string;
  heapMb?: number;
}): Promise<BenchServer> {
  const testing = await import('@zkwire/testing');
  const pin = canPin();
  const clientPrefix = pin ? ['taskset', '-c', '1'] : [];
  if (options.connect) {
    const [host = '127.0.0.1', port = '2181'] = options.connect.split(':');
    const srvr = await testing.fourLetterWord(host, Number(port), 'srvr').catch(() => '');
    return {
      connectString: options.connect,
      description: `external server ${options.connect}`,
      version: versionIn(srvr),
      pinning: pin ? 'clients pinned to core 1 (taskset); the external server is not pinned' : 'not pinned',
      clientPrefix,
      stop: async () => {},
    };
  }
  const server = await testing.startZooKeeper({
    ...(options.zkVersion ? { version: options.zkVersion } : {}),
    ...(options.heapMb ? { heapMb: options.heapMb } : {}),
    // The JDK's default accept backlog (50) overflows in a connect storm of thousands of sessions, and each
    // dropped SYN costs its session the kernel's 1 s retransmit: the sessions cells would time the server's
    // queue, by luck, rather than the client. The kernel caps this at net.core.somaxconn.
    config: { clientPortListenBacklog: LISTEN_BACKLOG },
  });
  let pinning = 'not pinned (no taskset, or fewer than 2 cores)';
  if (pin && server.pid !== undefined) {
    // -a: every thread of the JVM, those started before this call included
    const pinned =
      spawnSync('taskset', ['-a', '-cp', '0', String(server.pid)], { stdio: 'ignore' }).status === 0;
    pinning = pinned
      ? 'server JVM on core 0, client processes on core 1 (taskset)'
      : 'clients on core 1 only';
  }
  return {
    connectString: server.connectString,
    description: `embedded standalone ZooKeeper (@zkwire/testing: -Xmx${options.heapMb ?? 128}m, SerialGC, forceSync=no, clientPortListenBacklog=${LISTEN_BACKLOG})`,
    version: server.version,
    pinning,
    clientPrefix,
    stop: async () => {
      await server[Symbol.asyncDispose]();
    },
  };
}
