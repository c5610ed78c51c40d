/**
 * QueueSharder (Curator's `queue.QueueSharder`): one logical queue spread over several queues, so that no one
 * queue node grows past what a children listing can carry. The layout is Curator's, so a Java QueueSharder
 * and this one work on the same path: the shards are children `<queuePath>/queue-<uuid>`, each an ordinary
 * queue made by the allocator; every sharder checks the shards' sizes every `thresholdCheckMs`, and the one
 * leading a LeaderLatch at `leaderPath` (Curator's, from `@zkwire/recipes`) adds a shard when one holds
 * `newQueueThreshold` items or more, up to `maxQueues`. `getQueue()` spreads puts: it picks at random among
 * the shards with room (at most half the threshold, or new), else among all of them.
 *
 * Item order holds within each shard, not across them (as Curator says).
 */
import { randomUUID } from 'node:crypto';
import { checkZnodePath, Reporter } from '@zkwire/common';
import { LeaderLatch, type RecipeClient } from '@zkwire/recipes';
import { invalidQueueArgument, QueueArgumentError, QueueError, QueueErrorCode } from './errors.js';
import type { QueueClient } from './zk-client.js';
import { isNodeExists } from './zk-errors.js';

/** Curator's name prefix of a shard. */
export const QUEUE_SHARD_PREFIX = 'queue-';

/** What the sharder needs of a shard: any of this package's queues fits. */
export interface ShardQueue {
  /** Creates the shard's node (Curator's `start`). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The client a sharder takes: the real client is both a queue client and a recipe client. */
export type SharderClient = QueueClient & RecipeClient;

/** Options of a QueueSharder (Curator's constructor arguments and `QueueSharderPolicies`). */
export interface QueueSharderOptions<Q extends ShardQueue> {
  /** The parent of the shards. */
  queuePath: string;
  /** The LeaderLatch path of the sharder that adds shards; not `queuePath` (nor under it). */
  leaderPath: string;
  /** Makes the queue of one shard (Curator's `QueueAllocator`), e.g. `new DistributedQueue(client, path, ...)`. */
  allocateQueue: (client: SharderClient, shardPath: string) => Q;
  /** A shard with this many items or more makes the leader add a shard. Default 10 000 (Curator's). */
  newQueueThreshold?: number;
  /** How often the shards' sizes are checked. Default 30 000 ms (Curator's). */
  thresholdCheckMs?: number;
  /** The most shards the leader makes. Default 10 (Curator's). */
  maxQueues?: number;
  /**
   * Receives errors of the background check (Curator logs them). Default: the client's logger (warn), else a
   * process warning `ZKWIRE_QUEUE`. A hook that throws is reported as `ZKWIRE_LISTENER_ERROR`.
   */
  onError?: (error: unknown) => void;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new QueueArgumentError(name, `must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** A facade over several queues under one path, adding a queue when one passes its threshold. */
export class QueueSharder<Q extends ShardQueue> implements AsyncDisposable {
  readonly queuePath: string;
  readonly leaderPath: string;
  readonly #client: SharderClient;
  readonly #allocate: (client: SharderClient, shardPath: string) => Q;
  readonly #threshold: number;
  readonly #checkMs: number;
  readonly #maxQueues: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  /** Reports a failed check, and an onError hook that throws. */
  readonly #reporter: Reporter<Record<never, unknown[]>>;
  readonly #queues = new Map<string, Q>();
  /** Shards with room: puts go here first. */
  readonly #preferred = new Set<string>();
  readonly #latch: LeaderLatch;
  #state: 'latent' | 'started' | 'closed' = 'latent';
  #timer: ReturnType<typeof setTimeout> | undefined;
  #checking: Promise<void> | undefined;

  constructor(client: SharderClient, options: QueueSharderOptions<Q>) {
    if (typeof options !== 'object' || options === null) {
      throw new QueueArgumentError(
        'options',
        'must be an object with queuePath, leaderPath and allocateQueue',
      );
    }
    this.queuePath = checkZnodePath(options.queuePath, 'queuePath', invalidQueueArgument);
    this.leaderPath = checkZnodePath(options.leaderPath, 'leaderPath', invalidQueueArgument);
    if (this.leaderPath === this.queuePath || this.leaderPath.startsWith(`${this.queuePath}/`)) {
      throw new QueueArgumentError('leaderPath', 'must be different from queuePath and not under it');
    }
    if (typeof options.allocateQueue !== 'function') {
      throw new QueueArgumentError('allocateQueue', 'must be a function (client, shardPath) => queue');
    }
    this.#client = client;
    this.#allocate = options.allocateQueue;
    this.#threshold = positiveInteger('newQueueThreshold', options.newQueueThreshold, 10_000);
    this.#checkMs = positiveInteger('thresholdCheckMs', options.thresholdCheckMs, 30_000);
    this.#maxQueues = positiveInteger('maxQueues', options.maxQueues, 10);
    this.#onError = options.onError;
    this.#reporter = new Reporter(undefined, client, `QueueSharder ${this.queuePath}`, 'zookeeper queues');
    this.#latch = new LeaderLatch(client, this.leaderPath);
  }

  /** Creates `queuePath`, takes up the shards already there (or makes the first), joins the leader election. */
  async start(): Promise<void> {
    if (this.#state !== 'latent') {
      throw new QueueError(
        QueueErrorCode.ILLEGAL_STATE,
        `QueueSharder at ${this.queuePath} was already started`,
      );
    }
    this.#state = 'started';
    await this.#client
      .create(this.queuePath, null, { mode: 'persistent', createParents: 'container' })
      .catch((error: unknown) => {
        if (!isNodeExists(error)) throw error;
      });
    const children = await this.#client.getChildren(this.queuePath);
    for (const child of children) await this.#addQueueIfNeeded(`${this.queuePath}/${child}`);
    if (children.length === 0) await this.#addQueueIfNeeded(this.#newShardPath());
    await this.#latch.start();
    this.#schedule();
  }

  /** One of the shards, picked at random among those with room (Curator: "consider it a random one"). */
  getQueue(): Q {
    if (this.#state !== 'started') {
      throw new QueueError(QueueErrorCode.QUEUE_CLOSED, `QueueSharder at ${this.queuePath} is not started`);
    }
    const candidates = this.preferredQueuePaths;
    const key = candidates[Math.floor(Math.random() * candidates.length)] as string;
    return this.#queues.get(key) as Q;
  }

  /** How many shards this sharder knows (Curator's `getShardQty`). */
  get shardCount(): number {
    return this.#queues.size;
  }

  /** The shards' paths (Curator's `getQueuePaths`). */
  get queuePaths(): string[] {
    return [...this.#queues.keys()];
  }

  /** The shards `getQueue()` picks from now: those with room, or every shard when none has. */
  get preferredQueuePaths(): string[] {
    return this.#preferred.size > 0 ? [...this.#preferred] : [...this.#queues.keys()];
  }

  /** True while this sharder is the one that adds shards. */
  get isLeader(): boolean {
    return this.#latch.hasLeadership;
  }

  /** Stops checking, leaves the election and closes every shard's queue. */
  async close(): Promise<void> {
    if (this.#state !== 'started') {
      this.#state = 'closed';
      return;
    }
    this.#state = 'closed';
    clearTimeout(this.#timer);
    await this.#checking;
    await this.#latch.close().catch(() => {});
    await Promise.allSettled([...this.#queues.values()].map((queue) => queue.close()));
  }

  /** `await using`: close. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #newShardPath(): string {
    return `${this.queuePath}/${QUEUE_SHARD_PREFIX}${randomUUID()}`;
  }

  async #addQueueIfNeeded(shardPath: string): Promise<void> {
    if (this.#queues.has(shardPath)) return;
    const queue = this.#allocate(this.#client, shardPath);
    this.#queues.set(shardPath, queue);
    await queue.start();
    this.#preferred.add(shardPath);
  }

  #schedule(): void {
    if (this.#state !== 'started') return;
    this.#timer = setTimeout(() => {
      this.#checking = this.#checkThreshold()
        .catch((error: unknown) => this.#report(error))
        .finally(() => this.#schedule());
    }, this.#checkMs);
    this.#timer.unref?.();
  }

  /** A failed check goes to onError (one that throws is reported in turn), else the logger or a warning. */
  #report(error: unknown): void {
    const onError = this.#onError;
    if (onError !== undefined) this.#reporter.call('onError hook', () => onError(error));
    else this.#reporter.background(error, 'a threshold check failed', 'ZKWIRE_QUEUE');
  }

  /** Curator's `checkThreshold`: take up new shards, sort them by room, and (leader) add one when full. */
  async #checkThreshold(): Promise<void> {
    let overThreshold = false;
    const children = await this.#client.getChildren(this.queuePath);
    for (const child of children) {
      if (this.#state !== 'started') return;
      const shardPath = `${this.queuePath}/${child}`;
      await this.#addQueueIfNeeded(shardPath);
      const stat = await this.#client.exists(shardPath);
      if (stat === null) continue;
      if (stat.numChildren >= this.#threshold) {
        overThreshold = true;
        this.#preferred.delete(shardPath);
      } else if (stat.numChildren <= Math.floor(this.#threshold / 2)) {
        this.#preferred.add(shardPath);
      }
    }
    if (overThreshold && this.#latch.hasLeadership && this.#state === 'started') {
      if (this.#queues.size < this.#maxQueues) await this.#addQueueIfNeeded(this.#newShardPath());
      else
        this.#report(new Error(`the most shards (${this.#maxQueues}) are made: consider raising maxQueues`));
    }
  }
}
