/**
 * Recipes and queues with our packages, loop for loop as CuratorBench.java: an uncontended mutex, a mutex
 * handed off among 10 sessions, SimpleDistributedQueue offer + take, DistributedQueue items consumed per
 * second (put, or putMulti of 10, at most 100 waiting), and its put-to-consumer latency. One op is one
 * acquire + release, or one item through the queue.
 */
import { cellBase } from '../contenders/driver-protocol.js';
import { loadOurs } from '../contenders/ours.js';
import { message, repeatAlone, sleep, timedWindow } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

/** Sessions contending for the lock in lockHandoff (CuratorBench.java uses the same). */
export const HANDOFF_SESSIONS = 10;
const PUT_MULTI_ITEMS = 10;
/** Items put but not yet consumed, at most: keeps the queue short, so that a listing stays cheap. */
const BACKLOG = 100;

type Queue = InstanceType<Awaited<ReturnType<typeof loadOurs>>['queues']['DistributedQueue']>;

/** Runs `loops` (each an endless sequence of ops) for warm-up + duration; the window counts their ops. */
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
  const measured = await timedWindow(spec, () => completed);
  stopped = true;
  await Promise.race([Promise.all(running), sleep(10_000)]);
  return failure === undefined ? { ok: true, ...measured } : { ok: false, error: message(failure) };
}

/** One producer putting `batch` items at a time, one consumer; an op is an item consumed. */
async function itemsThrough(queue: Queue, spec: CellSpec, batch: number): Promise<CellResult> {
  const item = Buffer.alloc(spec.dataSize, 0x71);
  const items = Array.from({ length: batch }, () => item);
  const stop = new AbortController();
  let consumed = 0;
  let put = 0;
  let wake = () => {};
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  const onItem = () => {
    consumed++;
    wake();
  };
  const consumer = queue.consume(onItem, { signal: stop.signal }).catch(fail);
  const producer = (async () => {
    while (!stop.signal.aborted && failure === undefined) {
      if (put - consumed + batch > BACKLOG) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
        continue;
      }
      await (batch === 1 ? queue.put(item) : queue.putMulti(items));
      put += batch;
    }
  })().catch(fail);
  const measured = await timedWindow(spec, () => consumed);
  stop.abort();
  await Promise.race([Promise.all([producer, consumer]), sleep(10_000)]);
  return failure === undefined ? { ok: true, ...measured } : { ok: false, error: message(failure) };
}

/** Put one item, wait until the consumer has it, then the next; latency from put() to the handler. */
async function itemLatency(queue: Queue, spec: CellSpec): Promise<CellResult> {
  const item = Buffer.alloc(spec.dataSize, 0x71);
  const stop = new AbortController();
  let arrived = () => {};
  const consumer = queue.consume(() => arrived(), { signal: stop.signal });
  try {
    return await repeatAlone(spec, async (recorder) => {
      const t0 = process.hrtime.bigint();
      const got = new Promise<boolean>((resolve) => {
        arrived = () => resolve(true);
        setTimeout(() => resolve(false), 10_000).unref();
      });
      await queue.put(item);
      if (!(await Promise.race([got, consumer.then(() => false)])))
        throw new Error('queue: no item within 10 s');
      recorder.record(t0);
    });
  } finally {
    stop.abort();
    await Promise.race([consumer.catch(() => {}), sleep(10_000)]);
  }
}

export async function runRecipe(spec: CellSpec): Promise<CellResult> {
  const m = await loadOurs();
  const base = cellBase(spec);
  const sessions = spec.scenario === 'lockHandoff' ? HANDOFF_SESSIONS : 1;
  const clients = await Promise.all(
    Array.from({ length: sessions }, () =>
      m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 }),
    ),
  );
  const first = clients[0] as (typeof clients)[number];
  try {
    if (spec.scenario === 'lockUncontended' || spec.scenario === 'lockHandoff') {
      const loops = clients.map((client) => {
        const mutex = new m.recipes.InterProcessMutex(client, `${base}/lock`);
        return async () => {
          await mutex.acquire();
          await mutex.release();
        };
      });
      return await measureLoops(loops, spec);
    }
    if (spec.scenario === 'queue') {
      const queue = new m.queues.SimpleDistributedQueue(first, `${base}/queue`);
      const item = Buffer.alloc(spec.dataSize, 0x71);
      try {
        return await measureLoops([() => queue.offer(item).then(() => queue.take().then(() => {}))], spec);
      } finally {
        queue.close();
      }
    }
    const queue = new m.queues.DistributedQueue(first, `${base}/dqueue`, {
      serializer: m.queues.bytesSerializer,
    });
    try {
      if (spec.scenario === 'queueLatency') return await itemLatency(queue, spec);
      return await itemsThrough(queue, spec, spec.scenario === 'queuePutMulti' ? PUT_MULTI_ITEMS : 1);
    } finally {
      await queue.close().catch(() => {});
    }
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
