/**
 * What every DistributedQueue kind shares: creating its nodes, putting batches (bounded or not), tracking
 * puts in flight so that close() flushes them, and running consumers as a handler or an async iterable.
 */
import { checkZnodePath, Reporter } from '@zkwire/common';
import { anySignal, waitFor } from './abortable.js';
import { encodeBatch } from './batch-format.js';
import { waitForRoom } from './bounded-put.js';
import { type ConsumerLoopConfig, type ConsumerStats, runConsumerLoop } from './consumer-loop.js';
import { publishQueue } from './diagnostics.js';
import { invalidQueueArgument, QueueArgumentError, QueueError, QueueErrorCode } from './errors.js';
import { ItemIterator } from './item-iterator.js';
import type { ItemNaming } from './item-names.js';
import type { ErrorMode, ItemInfo } from './item-processor.js';
import { retryTransient } from './retry.js';
import type { QueueSerializer } from './serializers.js';
import type { QueueClient } from './zk-client.js';
import { isNodeExists } from './zk-errors.js';

/** Options shared by every DistributedQueue kind (Curator's QueueBuilder settings). */
export interface QueueOptions<T> {
  /** Item bytes: `stringSerializer`, `jsonSerializer()`, `bytesSerializer` or your own. */
  serializer: QueueSerializer<T>;
  /**
   * Lock path for lock-safe, at-least-once consumption (Curator's `lockPath`). Without it consumption is
   * at-most-once. Every consumer of one queue must use the same mode.
   */
  lockPath?: string | undefined;
  /** Lock-safe mode only: what a consumer error does. 'requeue' (default) puts the whole batch back. */
  errorMode?: ErrorMode | undefined;
  /** Bounded queue: puts wait while the queue holds this many nodes (see `put`'s timeoutMs). */
  maxItems?: number | undefined;
  /** Where corrupt batch nodes are moved; `null` deletes them as Curator does. Default `<path>-corrupt`. */
  corruptPath?: string | null | undefined;
  /**
   * Receives consumer errors and corrupt items (a {@link CorruptQueueItemError}). Default: the client's logger
   * (warn), else a process warning `ZKWIRE_QUEUE`. A hook that throws is reported as `ZKWIRE_LISTENER_ERROR`.
   */
  onError?: ((error: unknown, info: { path: string; name: string }) => void) | undefined;
  /** Largest children listing, in bytes; keep it at or below the client's maxFrameLength. */
  listingLimitBytes?: number | undefined;
  /** How long close() waits for puts in flight. Default 5000 ms (Curator's finalFlushMs). */
  finalFlushMs?: number | undefined;
  /**
   * At-most-once consumers read this many nodes ahead of the one being taken, pipelined (0 = one at a time,
   * as Curator). Default 16.
   */
  readAhead?: number | undefined;
}

/** Options of one put. */
export interface PutOptions {
  /** Bounded queue: give up (QUEUE_FULL) after waiting this long for room. Default: wait as long as it takes. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Options of a consumer. */
export interface ConsumeOptions {
  /** Stops the consumer: the item in hand finishes, the rest of its batch goes back into the queue. */
  signal?: AbortSignal | undefined;
}

/** Consumes one item; throwing counts as a failure (see the queue's delivery guarantee). */
export type ItemHandler<T> = (item: T, info: ItemInfo) => void | Promise<void>;

/** The code of the process warning for a consumer error or corrupt item nobody hears (stable). */
const QUEUE_ITEM_WARNING = 'ZKWIRE_QUEUE';

/** The shared machinery of DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue, DistributedIdQueue. */
export abstract class QueueBase<T> implements AsyncDisposable {
  protected readonly options: QueueOptions<T>;
  private started: Promise<void> | undefined;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly closing = new AbortController();
  private readonly consumers = new Set<Promise<void>>();
  private closed = false;
  /** Listings and batches of every consumer of this queue object. */
  readonly stats: ConsumerStats = { listings: 0, batches: 0 };
  /** Reports what a consumer cannot get past, and an onError hook that throws. */
  private readonly reporter: Reporter<Record<never, unknown[]>>;

  protected constructor(
    protected readonly client: QueueClient,
    /** The queue node. */
    readonly path: string,
    options: QueueOptions<T>,
    protected readonly naming: ItemNaming,
    private readonly minItemsBeforeRefresh: number,
  ) {
    checkZnodePath(path, 'path', invalidQueueArgument);
    if (options?.lockPath !== undefined) checkZnodePath(options.lockPath, 'lockPath', invalidQueueArgument);
    if (options?.corruptPath) checkZnodePath(options.corruptPath, 'corruptPath', invalidQueueArgument);
    if (typeof options?.serializer?.serialize !== 'function') {
      throw new QueueArgumentError('serializer', 'must have serialize and deserialize functions');
    }
    const max = options.maxItems;
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
      throw new QueueArgumentError('maxItems', `must be a positive integer, got ${max}`);
    }
    if (
      options.errorMode !== undefined &&
      options.errorMode !== 'requeue' &&
      options.errorMode !== 'delete'
    ) {
      throw new QueueArgumentError('errorMode', `must be 'requeue' or 'delete', got ${options.errorMode}`);
    }
    this.options = options;
    this.reporter = new Reporter(undefined, client, `queue ${path}`, 'zookeeper queues');
  }

  /** Creates the queue node (and lock node) if missing, parents as containers. Called by put and consume. */
  start(): Promise<void> {
    this.started ??= this.createNodes().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private async createNodes(): Promise<void> {
    for (const path of [this.path, this.options.lockPath]) {
      if (path === undefined) continue;
      await retryTransient(this.client, () =>
        this.client
          .create(path, null, { mode: 'persistent', createParents: 'container' })
          .catch((e: unknown) => {
            if (!isNodeExists(e)) throw e;
            return path;
          }),
      );
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new QueueError(QueueErrorCode.QUEUE_CLOSED, `queue ${this.path} is closed`);
  }

  /** Serializes `items` into one batch node named `prefix<seq>`; resolves with the node's path. */
  protected putBatch(prefix: string, items: readonly T[], options: PutOptions = {}): Promise<string> {
    this.checkOpen();
    if (!Array.isArray(items) || items.length === 0) {
      throw new QueueArgumentError('items', 'must be a non-empty array');
    }
    const raws = items.map((item, index) => {
      try {
        return this.options.serializer.serialize(item);
      } catch (cause) {
        throw new QueueArgumentError(
          `items[${index}]`,
          `could not be serialized: ${(cause as Error)?.message}`,
        );
      }
    });
    const bytes = encodeBatch(raws);
    const put = (async () => {
      await this.start();
      if (this.options.maxItems !== undefined) {
        const signal = anySignal(options.signal, this.closing.signal);
        await waitForRoom(this.client, this.path, this.options.maxItems, {
          timeoutMs: options.timeoutMs,
          signal,
        });
      }
      // A retry after a lost reply can create the batch twice (as Curator's does): duplicates, never losses.
      const node = await retryTransient(
        this.client,
        () => this.client.create(`${this.path}/${prefix}`, bytes, { mode: 'persistent-sequential' }),
        { signal: options.signal },
      );
      publishQueue(() => ({ event: 'put', queuePath: this.path, node, items: raws.length }));
      return node;
    })();
    this.inflight.add(put);
    const forget = () => this.inflight.delete(put);
    put.then(forget, forget);
    return put;
  }

  /** Waits for puts in flight; true when all finished within `timeoutMs` (Curator's flushPuts). */
  async flush(timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    const pending = Promise.allSettled([...this.inflight]);
    if (!Number.isFinite(timeoutMs)) {
      await pending;
      return true;
    }
    return waitFor(
      (wake) => {
        pending.then(wake);
        return () => {};
      },
      { timeoutMs },
    );
  }

  private loopConfig(): ConsumerLoopConfig<T> {
    const { options } = this;
    return {
      client: this.client,
      queuePath: this.path,
      lockPath: options.lockPath,
      errorMode: options.errorMode ?? 'requeue',
      corruptTarget: options.corruptPath === undefined ? `${this.path}-corrupt` : options.corruptPath,
      serializer: options.serializer,
      naming: this.naming,
      minItemsBeforeRefresh: this.minItemsBeforeRefresh,
      listingLimitBytes: options.listingLimitBytes,
      readAhead: options.readAhead ?? 16,
      report: (error, info) => {
        const onError = options.onError;
        // A hook that throws is reported in turn and stops nothing: the consumer goes on with the next item.
        if (onError !== undefined) this.reporter.call('onError hook', () => onError(error, info));
        else this.reporter.background(error, `item ${info.path}`, QUEUE_ITEM_WARNING);
      },
    };
  }

  /**
   * Runs `handler` for every item until `options.signal` fires or the queue closes (then resolves), or an
   * error the consumer cannot get past (session expired, client closed) ends it (rejects).
   */
  consume(handler: ItemHandler<T>, options: ConsumeOptions = {}): Promise<void> {
    this.checkOpen();
    const signal = anySignal(options.signal, this.closing.signal);
    const run = (async () => {
      await this.start();
      await runConsumerLoop(
        this.loopConfig(),
        async (item, info) => {
          await handler(item, info);
        },
        () => signal.aborted,
        signal,
        this.stats,
      );
    })();
    return this.track(run);
  }

  private track(run: Promise<void>): Promise<void> {
    this.consumers.add(run);
    const forget = () => this.consumers.delete(run);
    run.then(forget, forget);
    return run;
  }

  /**
   * The items as an async iterable. An item counts as handled when the loop asks for the next one; leaving the
   * loop early (break, throw, return) puts the rest of the batch back (in lock-safe mode the current item too).
   */
  items(options: ConsumeOptions = {}): AsyncIterableIterator<T> {
    this.checkOpen();
    return new ItemIterator<T>(
      (deliver, stopRequested, signal) => {
        const run = (async () => {
          await this.start();
          await runConsumerLoop(this.loopConfig(), deliver, stopRequested, signal, this.stats);
        })();
        return this.track(run);
      },
      anySignal(options.signal, this.closing.signal),
    );
  }

  /** `for await (const item of queue)`: same as {@link items}. */
  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this.items();
  }

  /** Flushes puts in flight (up to finalFlushMs), stops every consumer and waits for them to wind down. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush(this.options.finalFlushMs ?? 5000);
    this.closing.abort(new QueueError(QueueErrorCode.QUEUE_CLOSED, `queue ${this.path} is closed`));
    await Promise.allSettled([...this.consumers]);
  }

  /** `await using queue = ...` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
