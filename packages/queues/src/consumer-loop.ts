/**
 * The consumer loop shared by every DistributedQueue kind (Curator's runLoop/processChildren): take a
 * snapshot of the children (one listing, one watch), sort it the queue's way, process it in order, and list
 * again only when the watch or a reconnection said the snapshot went stale. Delay queues wait on a timer for
 * the earliest due item, or on a change, whichever comes first: no polling.
 */
import { ChildrenWatcher } from './children-watcher.js';
import type { CorruptItemTarget } from './corrupt-items.js';
import { type ItemNaming, QUEUE_ITEM_PREFIX } from './item-names.js';
import {
  type ErrorMode,
  type ItemInfo,
  type PrefetchedData,
  type ProcessOutcome,
  type ProcessorContext,
  prefetchItem,
  processAtMostOnce,
  processLockSafe,
} from './item-processor.js';
import type { QueueSerializer } from './serializers.js';
import { onClientState, type QueueClient } from './zk-client.js';

/** The queue-side settings of a consumer loop. */
export interface ConsumerLoopConfig<T> {
  client: QueueClient;
  queuePath: string;
  lockPath: string | undefined;
  errorMode: ErrorMode;
  corruptTarget: CorruptItemTarget;
  serializer: QueueSerializer<T>;
  naming: ItemNaming;
  /** After this many items of a snapshot, a stale snapshot is dropped and re-listed (priority queues). */
  minItemsBeforeRefresh: number;
  listingLimitBytes: number | undefined;
  /** At-most-once: how many nodes past the current one are read ahead (0 = none). */
  readAhead: number;
  report(error: unknown, info: { path: string; name: string }): void;
}

/** Counters a loop keeps (tests and the bench read them). */
export interface ConsumerStats {
  listings: number;
  batches: number;
}

/**
 * Runs until `stopRequested()` or `signal` ends it (resolves), or an error it cannot get past (session
 * expired, client closed, listing too large) ends it (rejects).
 */
export async function runConsumerLoop<T>(
  config: ConsumerLoopConfig<T>,
  deliver: (item: T, info: ItemInfo) => Promise<void>,
  stopRequested: () => boolean,
  signal: AbortSignal,
  stats: ConsumerStats = { listings: 0, batches: 0 },
): Promise<void> {
  const { client, naming } = config;
  const watcher = new ChildrenWatcher(client, config.queuePath, {
    signal,
    ...(config.listingLimitBytes === undefined ? {} : { listingLimitBytes: config.listingLimitBytes }),
  });
  // Names we must not touch again: unremovable corrupt nodes, and items whose lock another consumer holds
  // (until that lock's watch fires).
  const unremovable = new Set<string>();
  const lockedByOthers = new Set<string>();
  const unsubscribe = onClientState(client, (state) => {
    if (state === 'connected' || state === 'reconnected') lockedByOthers.clear();
  });
  const ctx: ProcessorContext<T> = {
    client,
    queuePath: config.queuePath,
    lockPath: config.lockPath,
    errorMode: config.errorMode,
    corruptTarget: config.corruptTarget,
    serializer: config.serializer,
    naming,
    signal,
    deliver,
    stopRequested: () => stopRequested() || signal.aborted,
    report: config.report,
    onLockReleased: (event) => {
      lockedByOthers.delete(event.path.slice(event.path.lastIndexOf('/') + 1));
      watcher.markStale();
    },
  };
  const process = config.lockPath === undefined ? processAtMostOnce : processLockSafe;
  // Read-ahead is for at-most-once only: lock-safe mode must read a node after locking it.
  const readAhead = config.lockPath === undefined ? Math.max(0, config.readAhead) : 0;
  const prefetched = new Map<string, Promise<PrefetchedData>>();
  let snapshot: string[] = [];
  try {
    while (!ctx.stopRequested()) {
      if (watcher.isStale) {
        const names = await watcher.list();
        stats.listings++;
        const present = new Set(names);
        for (const name of unremovable) if (!present.has(name)) unremovable.delete(name);
        snapshot = naming.sort(
          names.filter((name) => name.startsWith(QUEUE_ITEM_PREFIX) && !unremovable.has(name)),
        );
      }
      const changeAtStart = watcher.changeCount;
      const notDue: string[] = [];
      let processed = 0;
      let refresh = false;
      let index = 0;
      for (; index < snapshot.length && !ctx.stopRequested(); index++) {
        const name = snapshot[index] as string;
        if (processed >= config.minItemsBeforeRefresh && watcher.changeCount !== changeAtStart) {
          refresh = true;
          break;
        }
        if (lockedByOthers.has(name)) continue;
        if (naming.dueAt(name) > Date.now()) {
          notDue.push(name);
          continue;
        }
        let outcome: ProcessOutcome;
        if (readAhead > 0) {
          // Reads of the next nodes go out now, pipelined with this one: a taken item costs about one round
          // trip (its delete) instead of two.
          for (let ahead = index; ahead < snapshot.length && ahead <= index + readAhead; ahead++) {
            const next = snapshot[ahead] as string;
            if (!prefetched.has(next) && !lockedByOthers.has(next) && naming.dueAt(next) <= Date.now()) {
              prefetched.set(next, prefetchItem(client, `${config.queuePath}/${next}`));
            }
          }
          const early = prefetched.get(name);
          prefetched.delete(name);
          outcome = await processAtMostOnce(ctx, name, early);
        } else {
          outcome = await process(ctx, name);
        }
        processed++;
        if (outcome === 'consumed') stats.batches++;
        else if (outcome === 'locked') lockedByOthers.add(name);
        else if (outcome === 'unremovable') unremovable.add(name);
      }
      if (ctx.stopRequested()) break;
      // Items skipped because locked stay out of the snapshot until their lock's watch fires (stale again).
      snapshot = refresh ? [] : notDue;
      prefetched.clear();
      if (refresh || watcher.isStale) continue;
      let earliest = Number.POSITIVE_INFINITY;
      for (const name of snapshot) earliest = Math.min(earliest, naming.dueAt(name));
      const timeoutMs = Number.isFinite(earliest) ? Math.max(1, earliest - Date.now()) : undefined;
      await watcher.waitForChange(watcher.changeCount, timeoutMs);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    unsubscribe();
    watcher.close();
  }
}
