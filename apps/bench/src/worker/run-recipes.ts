/**
 * Recipes and queues with our packages, mirroring CuratorBench.java loop for loop: an uncontended mutex
 * (acquire + release on one session), a lock handed off among 10 sessions, and a SimpleDistributedQueue
 * offer + take, and DistributedQueue (run-dqueue.ts). One op is one acquire + release, or one item through the
 * queue.
 */
import { importOurs, importOursCompanion, OURS_MODULE_ENV } from '../ours-build.js';
import type { CellResult, CellSpec } from '../types.js';
import { type DistributedQueueClass, runDistributedQueue, runQueueLatency } from './run-dqueue.js';
import { MeasureWindow, sleep } from './window.js';

/** How many sessions contend for the lock in the hand-off scenario (the figure). */
export const HANDOFF_CONTENDERS = 10;

/** Items per putMulti in the batched-put scenario. */
export const PUT_MULTI_ITEMS = 10;

interface Closeable {
  close(): Promise<void>;
}
interface Mutex {
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}
interface SimpleQueue {
  offer(data: Uint8Array): Promise<string>;
  take(): Promise<Buffer>;
  close(): void;
}
interface Modules {
  connect(options: { connectString: string; sessionTimeoutMs?: number }): Promise<Closeable>;
  InterProcessMutex: new (client: Closeable, path: string) => Mutex;
  SimpleDistributedQueue: new (client: Closeable, path: string) => SimpleQueue;
  DistributedQueue: DistributedQueueClass;
  bytesSerializer: unknown;
}

async function load(): Promise<Modules> {
  // As the throughput cells run ours: built for the run unless --ours-from source (ours-build.ts).
  const module = process.env[OURS_MODULE_ENV];
  const [client, recipes, queues] = await Promise.all([
    importOurs(module),
    importOursCompanion('@zkwire/recipes', module),
    importOursCompanion('@zkwire/queues', module),
  ]);
  return { ...client, ...recipes, ...queues } as unknown as Modules;
}

/** Runs `loops` (each an endless sequence of ops) through warmup + duration and measures the window. */
async function measureLoops(loops: (() => Promise<void>)[], spec: CellSpec): Promise<CellResult> {
  let completed = 0;
  let stopped = false;
  let failure: unknown;
  const running = loops.map(async (op) => {
    while (!stopped) {
      try {
        await op();
        completed++;
      } catch (error) {
        failure ??= error;
        stopped = true;
      }
    }
  });
  const window = new MeasureWindow();
  await sleep(spec.warmupMs);
  window.open(completed, 0);
  await sleep(spec.durationMs);
  const measured = window.close(completed, 0);
  stopped = true;
  await Promise.race([Promise.all(running), sleep(10_000)]);
  if (failure !== undefined) {
    return { ok: false, error: failure instanceof Error ? failure.message : String(failure) };
  }
  return { ok: true, ...measured };
}

/** One recipe cell for our packages. */
export async function runRecipe(spec: CellSpec): Promise<CellResult> {
  if (spec.scenario === 'cacheLoad' || spec.scenario === 'cacheLatency') {
    return (await import('./run-cache.js')).runCache(spec);
  }
  const m = await load();
  const base = `${spec.paths.root}/recipes/${spec.cellId}`;
  const sessions = spec.scenario === 'lockHandoff' ? HANDOFF_CONTENDERS : 1;
  const clients = await Promise.all(
    Array.from({ length: sessions }, () =>
      m.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 }),
    ),
  );
  try {
    switch (spec.scenario) {
      case 'lockUncontended':
      case 'lockHandoff': {
        const loops = clients.map((client) => {
          const mutex = new m.InterProcessMutex(client, `${base}/lock`);
          return async () => {
            await mutex.acquire();
            await mutex.release();
          };
        });
        return await measureLoops(loops, spec);
      }
      case 'queue': {
        const queue = new m.SimpleDistributedQueue(clients[0] as Closeable, `${base}/queue`);
        const item = Buffer.alloc(spec.dataSize, 0x71);
        try {
          return await measureLoops(
            [
              async () => {
                await queue.offer(item);
                await queue.take();
              },
            ],
            spec,
          );
        } finally {
          queue.close();
        }
      }
      case 'distributedQueue':
      case 'queuePutMulti': {
        const batch = spec.scenario === 'queuePutMulti' ? PUT_MULTI_ITEMS : 1;
        const queue = new m.DistributedQueue(clients[0] as Closeable, `${base}/dqueue`, {
          serializer: m.bytesSerializer,
        });
        return await runDistributedQueue(queue, spec, batch);
      }
      case 'queueLatency': {
        const queue = new m.DistributedQueue(clients[0] as Closeable, `${base}/dqueue`, {
          serializer: m.bytesSerializer,
        });
        return await runQueueLatency(queue, spec);
      }
      default:
        return { ok: false, unsupported: true, error: `no recipe scenario ${spec.scenario}` };
    }
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
