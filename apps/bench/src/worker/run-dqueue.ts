/**
 * DistributedQueue scenarios with @zkwire/queues, mirroring CuratorBench.java: items through the queue per
 * second (one producer putting one item, or a putMulti batch, at a time; one consumer on the same session),
 * and the end-to-end latency of one item from put() to the consumer's handler, one item at a time.
 */
import type { CellResult, CellSpec } from '../types.js';
import { LatencyRecorder } from './latency-recorder.js';
import { CellPhases, MeasureWindow, sleep } from './window.js';

/** The part of @zkwire/queues' DistributedQueue these loops use. */
export interface DistributedQueue {
  put(item: Uint8Array): Promise<string>;
  putMulti(items: readonly Uint8Array[]): Promise<string>;
  consume(handler: (item: Uint8Array) => void, options: { signal: AbortSignal }): Promise<void>;
  close(): Promise<void>;
}

/** Its constructor, as loaded from the package. */
export type DistributedQueueClass = new (
  client: unknown,
  path: string,
  options: { serializer: unknown },
) => DistributedQueue;

/** Items put but not yet consumed, at most: keeps the queue short so that a listing stays cheap. */
export const QUEUE_BACKLOG = 100;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One producer putting `batch` items per write (put when 1, putMulti otherwise), one after another; one
 * consumer taking them. An op is an item consumed. The producer waits while QUEUE_BACKLOG items are out.
 */
export async function runDistributedQueue(
  queue: DistributedQueue,
  spec: CellSpec,
  batch: number,
): Promise<CellResult> {
  const item = Buffer.alloc(spec.dataSize, 0x71);
  const items = Array.from({ length: batch }, () => item);
  const stop = new AbortController();
  let consumed = 0;
  let put = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;
  const consumer = queue
    .consume(
      () => {
        consumed++;
        wake?.();
      },
      { signal: stop.signal },
    )
    .catch((error: unknown) => {
      failure ??= error;
    });
  const producer = (async () => {
    while (!stop.signal.aborted && failure === undefined) {
      if (put - consumed + batch > QUEUE_BACKLOG) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
        continue;
      }
      await (batch === 1 ? queue.put(item) : queue.putMulti(items));
      put += batch;
    }
  })().catch((error: unknown) => {
    failure ??= error;
  });
  const window = new MeasureWindow();
  await sleep(spec.warmupMs);
  window.open(consumed, 0);
  await sleep(spec.durationMs);
  const measured = window.close(consumed, 0);
  stop.abort();
  await Promise.race([Promise.all([producer, consumer]), sleep(10_000)]);
  await queue.close().catch(() => {});
  if (failure !== undefined) return { ok: false, error: message(failure) };
  return { ok: true, ...measured, note: batch > 1 ? `putMulti of ${batch} items` : 'put of one item' };
}

/**
 * End-to-end latency: put one item, wait until the consumer's handler has it, then the next. Latency runs from
 * the put() call to the handler; an op is one item.
 */
export async function runQueueLatency(queue: DistributedQueue, spec: CellSpec): Promise<CellResult> {
  const item = Buffer.alloc(spec.dataSize, 0x71);
  const recorder = new LatencyRecorder();
  const stop = new AbortController();
  let consumed = 0;
  let arrived: (() => void) | undefined;
  let failure: unknown;
  const consumer = queue
    .consume(
      () => {
        consumed++;
        arrived?.();
      },
      { signal: stop.signal },
    )
    .catch((error: unknown) => {
      failure ??= error;
      arrived?.();
    });
  const phases = new CellPhases(spec, [recorder]);
  try {
    while (phases.running && failure === undefined) {
      phases.openWhenWarm(consumed, 0);
      const target = consumed + 1;
      const t0 = process.hrtime.bigint();
      const got = new Promise<void>((resolve) => {
        arrived = () => {
          if (consumed >= target || failure !== undefined) resolve();
        };
      });
      await queue.put(item);
      await Promise.race([got, sleep(10_000)]);
      if (consumed < target && failure === undefined)
        throw new Error('queue: an item took over 10 s to arrive');
      recorder.recordSince(t0);
    }
  } catch (error) {
    failure ??= error;
  }
  const measured = phases.close(consumed, 0);
  stop.abort();
  await Promise.race([consumer, sleep(10_000)]);
  await queue.close().catch(() => {});
  if (failure !== undefined) return { ok: false, error: message(failure) };
  return { ok: true, ...measured, latency: recorder.summary(), note: 'put() to handler, one item at a time' };
}
