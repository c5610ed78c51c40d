/**
 * One Node soak process: our client (through its own fault proxies) running every workload at once.
 * Argument: a JSON WorkerSpec. Stdin lines from the runner: `stop` (end the load, keep consuming),
 * `dump` (log the cache's content), `exit`. Answers on stdout: `ready`, `stopped`, `dumped`.
 */
import { createInterface } from 'node:readline';
import { seededRandom } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { EventLog } from '../event-log.js';
import { SoakPaths } from '../paths.js';
import { cacheSnapshot, consumeLoop, openQueue, produceLoop, startCache, writeLoop } from './data-load.js';
import { type LoadContext, leaderLoop, mutexLoop, semaphoreLoop } from './holders.js';

export interface WorkerSpec {
  proc: string;
  connectString: string;
  logPath: string;
  sessionTimeoutMs: number;
  seed: number;
  leases: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as WorkerSpec;
const log = new EventLog(spec.logPath, spec.proc);
const client = await connect(
  {
    connectString: spec.connectString,
    sessionTimeoutMs: spec.sessionTimeoutMs,
    autoRecreateSession: true,
  },
  { timeoutMs: 30_000 },
);
let stopping = false;
const ctx: LoadContext = {
  client,
  log,
  proc: spec.proc,
  stopping: () => stopping,
  random: seededRandom(spec.seed),
};

await client.create(`${SoakPaths.semaphoreMarks}/${spec.proc}`, '', { timeoutMs: 10_000 }).catch(() => {});
const cache = await startCache(ctx);
const queue = openQueue(ctx);
const consuming = new AbortController();
const load = Promise.all([
  mutexLoop(ctx),
  semaphoreLoop(ctx, spec.leases),
  leaderLoop(ctx),
  produceLoop(ctx, queue),
  writeLoop(ctx),
]);
const consumer = consumeLoop(ctx, queue, consuming.signal);
process.stdout.write('ready\n');

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stop') {
    stopping = true;
    await load;
    process.stdout.write('stopped\n');
  } else if (line === 'dump') {
    log.write({ kind: 'cache-dump', root: SoakPaths.writes, nodes: cacheSnapshot(cache) });
    process.stdout.write('dumped\n');
  } else if (line === 'exit') {
    break;
  }
}
stopping = true;
consuming.abort();
await Promise.race([Promise.all([load, consumer]), new Promise((r) => setTimeout(r, 5_000))]);
await queue.close().catch(() => {});
await cache.close().catch(() => {});
await client.close().catch(() => {});
log.close();
process.exit(0);
