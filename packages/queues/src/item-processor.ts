/**
 * Taking one batch node and handing its items out, in the two modes Curator has (curator/queues.md §8.3):
 *
 * - at-most-once (no lock path): read it, delete it with the version read, then deliver. A consumer error loses
 *   the item; nothing is delivered twice.
 * - lock-safe, at-least-once (lock path): lock it with an ephemeral `LP/<name>`, read, deliver, then delete it.
 *   A consumer error requeues the whole batch in one transaction (or skips the item with errorMode 'delete');
 *   a crash leaves the item in place for the next consumer.
 *
 * A consumer that stops in the middle of a batch puts the undelivered rest back as a new batch, so stopping
 * loses nothing in either mode.
 */
import { op, type Watcher } from '@zkwire/zk-wire-client';
import { decodeBatch, encodeBatch } from './batch-format.js';
import { type CorruptItemTarget, moveCorruptItem } from './corrupt-items.js';
import { publishQueue } from './diagnostics.js';
import { CorruptQueueItemError } from './errors.js';
import { acquireItemLock, forgetItemLock, releaseItemLock } from './item-lock.js';
import { createdPrefix, type ItemNaming } from './item-names.js';
import { retryTransient } from './retry.js';
import { deserializeItem, type QueueSerializer } from './serializers.js';
import type { QueueClient } from './zk-client.js';
import { isNoNode, isSessionExpired, isTakenByAnother } from './zk-errors.js';

/** What a consumer is told about the item it receives. */
export interface ItemInfo {
  /** The batch node the item came from. */
  readonly path: string;
  /** Its name under the queue path. */
  readonly name: string;
  /** Position of the item in its batch. */
  readonly index: number;
  /** Number of items in the batch. */
  readonly batchSize: number;
}

/** Thrown by a `deliver` function when its consumer has stopped and wants no more items. */
export class ConsumerStopped extends Error {
  override name = 'ConsumerStopped';
  /** Whether the item being delivered reached the consumer (true: do not put it back in at-most-once). */
  constructor(readonly delivered: boolean) {
    super('consumer stopped');
  }
}

/** How the processor treats a consumer error in lock-safe mode (Curator's ErrorMode). */
export type ErrorMode = 'requeue' | 'delete';

/** Everything one processor needs to know about its queue and its consumer. */
export interface ProcessorContext<T> {
  readonly client: QueueClient;
  readonly queuePath: string;
  /** Lock path for lock-safe mode; undefined for at-most-once. */
  readonly lockPath: string | undefined;
  readonly errorMode: ErrorMode;
  readonly corruptTarget: CorruptItemTarget;
  readonly serializer: QueueSerializer<T>;
  readonly naming: ItemNaming;
  readonly signal: AbortSignal | undefined;
  /** Hands one item to the consumer; throws the consumer's error, or {@link ConsumerStopped}. */
  deliver(item: T, info: ItemInfo): Promise<void>;
  /** True when the consumer wants no more items (checked before each one). */
  stopRequested(): boolean;
  /** Reports consumer errors and corrupt items. */
  report(error: unknown, info: { path: string; name: string }): void;
  /** Fires when a lock held by another consumer goes away. */
  readonly onLockReleased: Watcher;
}

/** What became of one node. */
export type ProcessOutcome = 'consumed' | 'taken' | 'locked' | 'corrupt' | 'unremovable' | 'stopped';

/** Reads, decodes and deserializes a batch; a failure is reported and the node moved aside. */
async function readBatch<T>(
  ctx: ProcessorContext<T>,
  name: string,
  itemPath: string,
  lockedByUs: boolean,
  prefetched?: Promise<PrefetchedData>,
): Promise<{ raws: Buffer[]; values: T[]; data: Buffer; version: number } | ProcessOutcome> {
  let got: { data: Buffer; stat: { version: number } };
  const early = prefetched === undefined ? undefined : await prefetched;
  if (early !== undefined && 'value' in early) {
    got = early.value;
  } else if (early !== undefined && isNoNode(early.error)) {
    return 'taken';
  } else {
    try {
      got = await retryTransient(ctx.client, () => ctx.client.getData(itemPath), { signal: ctx.signal });
    } catch (error) {
      if (isNoNode(error)) return 'taken';
      throw error;
    }
  }
  const data = got.data ?? Buffer.alloc(0);
  try {
    const raws = decodeBatch(data, itemPath);
    const values = raws.map((raw) => deserializeItem(ctx.serializer, raw, itemPath));
    return { raws, values, data, version: got.stat.version };
  } catch (error) {
    if (!(error instanceof CorruptQueueItemError)) throw error;
    const version = lockedByUs ? -1 : got.stat.version;
    try {
      const moved = await moveCorruptItem(
        ctx.client,
        itemPath,
        name,
        data,
        version,
        ctx.corruptTarget,
        error,
        ctx.signal,
      );
      if (moved === 'taken') return 'taken';
      ctx.report(error, { path: itemPath, name });
      return 'corrupt';
    } catch (moveError) {
      error.movedTo = undefined;
      ctx.report(error, { path: itemPath, name });
      ctx.report(moveError, { path: itemPath, name });
      return 'unremovable';
    }
  }
}

/**
 * Puts the items a stopping consumer did not take back as a new batch under the node's own prefix (priority,
 * due time or id kept). At-most-once: the original node is already gone.
 */
async function putBack<T>(ctx: ProcessorContext<T>, name: string, raws: Buffer[]): Promise<void> {
  if (raws.length === 0) return;
  const prefix = `${ctx.queuePath}/${createdPrefix(name)}`;
  await retryTransient(
    ctx.client,
    () => ctx.client.create(prefix, encodeBatch(raws), { mode: 'persistent-sequential' }),
    { signal: undefined },
  );
}

/** A getData issued ahead of time (read-ahead), settled either way so it never rejects unhandled. */
export type PrefetchedData = { value: { data: Buffer; stat: { version: number } } } | { error: unknown };

/** Starts reading a node ahead of its turn. */
export function prefetchItem(client: QueueClient, itemPath: string): Promise<PrefetchedData> {
  return client.getData(itemPath).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/**
 * At-most-once: versioned delete before delivery (Curator's processNormally). `prefetched` is a read of the
 * node made ahead of time: items are never modified, and the versioned delete still decides who takes it.
 */
export async function processAtMostOnce<T>(
  ctx: ProcessorContext<T>,
  name: string,
  prefetched?: Promise<PrefetchedData>,
): Promise<ProcessOutcome> {
  const itemPath = `${ctx.queuePath}/${name}`;
  const batch = await readBatch(ctx, name, itemPath, false, prefetched);
  if (typeof batch === 'string') return batch;
  try {
    // A retry after a lost reply may meet NONODE for our own delete: at-most-once then drops the batch.
    // No signal: once the delete may have been sent, it is seen through, or the batch could vanish unseen.
    await retryTransient(ctx.client, () => ctx.client.delete(itemPath, { version: batch.version }));
  } catch (error) {
    if (isTakenByAnother(error)) return 'taken';
    throw error;
  }
  const size = batch.values.length;
  for (let index = 0; index < size; index++) {
    if (ctx.stopRequested()) {
      await putBack(ctx, name, batch.raws.slice(index));
      return 'stopped';
    }
    try {
      await ctx.deliver(batch.values[index] as T, { path: itemPath, name, index, batchSize: size });
    } catch (error) {
      if (error instanceof ConsumerStopped) {
        await putBack(ctx, name, batch.raws.slice(error.delivered ? index + 1 : index));
        return 'stopped';
      }
      ctx.report(error, { path: itemPath, name });
    }
  }
  publishQueue(() => ({ event: 'consumed', queuePath: ctx.queuePath, node: itemPath, items: size }));
  return 'consumed';
}

/** Lock-safe, at-least-once (Curator's processWithLockSafety). */
export async function processLockSafe<T>(ctx: ProcessorContext<T>, name: string): Promise<ProcessOutcome> {
  const lockNodePath = `${ctx.lockPath}/${name}`;
  const itemPath = `${ctx.queuePath}/${name}`;
  const lock = await acquireItemLock(ctx.client, lockNodePath, ctx.onLockReleased, ctx.signal, () =>
    prefetchItem(ctx.client, itemPath),
  );
  if (lock.result === 'locked') return 'locked';
  // The lock lives as long as this session; a new session (auto-recreated after expiry) no longer holds it.
  const lockSession = ctx.client.sessionId;
  let lockReleased = false;
  try {
    const batch = await readBatch(ctx, name, itemPath, true, lock.read);
    if (typeof batch === 'string') return batch;
    let requeueFrom: number | undefined;
    let outcome: ProcessOutcome = 'consumed';
    const size = batch.values.length;
    for (let index = 0; index < size; index++) {
      if (ctx.stopRequested()) {
        requeueFrom = index;
        outcome = 'stopped';
        break;
      }
      const { state } = ctx.client;
      if (state === 'expired' || state === 'closed' || ctx.client.sessionId !== lockSession) {
        // The lock went with the session: another consumer may have the batch now. Deliver no more of it;
        // the requeue below fails with the session's error and ends this consumer (on a new session it puts
        // the rest back).
        requeueFrom = index;
        break;
      }
      try {
        await ctx.deliver(batch.values[index] as T, { path: itemPath, name, index, batchSize: size });
      } catch (error) {
        if (error instanceof ConsumerStopped) {
          // At-least-once: the item in hand may not have been handled completely; it goes back too.
          requeueFrom = index;
          outcome = 'stopped';
          break;
        }
        ctx.report(error, { path: itemPath, name });
        if (ctx.errorMode === 'requeue') {
          requeueFrom = 0;
          break;
        }
      }
    }
    if (requeueFrom === undefined) {
      lockReleased = await deleteItemAndLock(ctx, itemPath, lockNodePath);
      publishQueue(() => ({ event: 'consumed', queuePath: ctx.queuePath, node: itemPath, items: size }));
    } else {
      // A consumer error requeues as Curator does (its naming rule); a stop keeps the node's own prefix.
      const prefix = outcome === 'stopped' ? createdPrefix(name) : ctx.naming.requeuePrefix(name);
      const bytes = requeueFrom === 0 ? batch.data : encodeBatch(batch.raws.slice(requeueFrom));
      await requeue(ctx, itemPath, `${ctx.queuePath}/${prefix}`, bytes);
      const items = size - requeueFrom;
      publishQueue(() => ({ event: 'requeued', queuePath: ctx.queuePath, node: itemPath, items }));
    }
    return outcome;
  } finally {
    if (lockReleased) forgetItemLock(ctx.client, lockNodePath);
    else await releaseItemLock(ctx.client, lockNodePath);
  }
}

/**
 * Deletes the consumed item and its lock in one transaction (one round trip; to others it looks like
 * Curator's delete-then-release). True when the lock went too; otherwise the item is deleted alone (a
 * missing item is fine) and the caller releases the lock.
 */
async function deleteItemAndLock<T>(ctx: ProcessorContext<T>, itemPath: string, lockNodePath: string) {
  try {
    await retryTransient(ctx.client, () => ctx.client.multi([op.delete(itemPath), op.delete(lockNodePath)]));
    return true;
  } catch (error) {
    if (isSessionExpired(error)) throw error;
    // NONODE on the item: gone already (or our own transaction, whose reply was lost, took both).
    await retryTransient(ctx.client, () => ctx.client.delete(itemPath)).catch((e: unknown) => {
      if (!isNoNode(e)) throw e;
    });
    return false;
  }
}

/** Deletes the item and re-creates its bytes at the back of the queue, in one transaction. */
async function requeue<T>(
  ctx: ProcessorContext<T>,
  itemPath: string,
  prefix: string,
  bytes: Buffer,
): Promise<void> {
  try {
    await retryTransient(
      ctx.client,
      () =>
        ctx.client.multi([op.delete(itemPath), op.create(prefix, bytes, { mode: 'persistent-sequential' })]),
      { signal: undefined },
    );
  } catch (error) {
    // We hold the item's lock, so a missing item means our own transaction went through before a lost reply.
    if (!isNoNode(error)) throw error;
  }
}
