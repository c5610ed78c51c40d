/**
 * SimpleDistributedQueue (curator/queues.md §12.1): raw bytes in `Q/qn-<seq>`, no batch framing, taken with
 * an unversioned delete before it is returned. Unlike Curator's, a listing is kept between calls and read
 * again only when its watch fires, so draining N items costs about N reads and N deletes, not N listings.
 */
import { checkZnodePath } from '@zkwire/common';
import { throwIfAborted } from './abortable.js';
import { ChildrenWatcher } from './children-watcher.js';
import { invalidQueueArgument, QueueArgumentError, QueueError, QueueErrorCode } from './errors.js';
import { compareNatural, SIMPLE_ITEM_PREFIX } from './item-names.js';
import { retryTransient } from './retry.js';
import type { QueueClient } from './zk-client.js';
import { isNodeExists, isNoNode } from './zk-errors.js';

/** Options of a waiting call. */
export interface TakeOptions {
  /** Give up after this long (take rejects with ABORTED, poll resolves null). Default: no limit for take. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * A FIFO of byte strings, node-compatible with Curator's SimpleDistributedQueue (and ZooKeeper's queue
 * recipe). Delivery: at-most-once (an item is deleted before it is returned).
 */
export class SimpleDistributedQueue implements AsyncDisposable {
  private watcher: ChildrenWatcher | undefined;
  private sorted: string[] = [];
  private ensured = false;

  /** @param path the queue node (made a container, as Curator's EnsureContainers does). */
  constructor(
    private readonly client: QueueClient,
    readonly path: string,
  ) {
    checkZnodePath(path, 'path', invalidQueueArgument, { allowRoot: true });
  }

  private async ensure(): Promise<void> {
    if (this.ensured) return;
    await retryTransient(this.client, () =>
      this.client
        .create(this.path, null, { mode: 'container', createParents: 'container' })
        .catch((e: unknown) => {
          if (!isNodeExists(e)) throw e;
          return this.path;
        }),
    );
    this.ensured = true;
  }

  /** Adds `data` at the tail; resolves with the new node's path. */
  async offer(data: Uint8Array | string): Promise<string> {
    if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
      throw new QueueArgumentError('data', 'must be a Uint8Array or a string');
    }
    await this.ensure();
    const create = () =>
      this.client.create(`${this.path}/${SIMPLE_ITEM_PREFIX}`, data, { mode: 'persistent-sequential' });
    try {
      return await retryTransient(this.client, create);
    } catch (error) {
      // The container may have been reaped while empty: make it again.
      if (!isNoNode(error)) throw error;
      this.ensured = false;
      await this.ensure();
      return retryTransient(this.client, create);
    }
  }

  /** Removes and returns the head, or null when the queue is empty. */
  poll(options: TakeOptions = {}): Promise<Buffer | null> {
    return options.timeoutMs === undefined && options.signal === undefined
      ? this.headOnce(true)
      : this.wait(true, options).then(
          (value) => value,
          (error: unknown) => this.nullOnTimeout(error),
        );
  }

  /** Removes and returns the head, waiting for one to arrive (up to `timeoutMs`, then rejecting ABORTED). */
  take(options: TakeOptions = {}): Promise<Buffer> {
    return this.wait(true, options);
  }

  /** Returns the head without removing it, or null when the queue is empty. */
  peek(): Promise<Buffer | null> {
    return this.headOnce(false);
  }

  /** Returns the head without removing it; rejects with QUEUE_EMPTY when there is none. */
  async element(): Promise<Buffer> {
    return this.orEmpty(await this.headOnce(false));
  }

  /** Removes and returns the head; rejects with QUEUE_EMPTY when there is none. */
  async remove(): Promise<Buffer> {
    return this.orEmpty(await this.headOnce(true));
  }

  private orEmpty(value: Buffer | null): Buffer {
    if (value === null)
      throw new QueueError(QueueErrorCode.QUEUE_EMPTY, `queue ${this.path} is empty`, { path: this.path });
    return value;
  }

  private nullOnTimeout(error: unknown): null {
    if (
      QueueError.isInstance(error) &&
      error.code === QueueErrorCode.ABORTED &&
      error.message.includes('timed out')
    ) {
      return null;
    }
    throw error;
  }

  private async wait(remove: boolean, options: TakeOptions): Promise<Buffer> {
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    for (;;) {
      throwIfAborted(options.signal, 'take');
      const watcher = this.watcherFor();
      const change = watcher.changeCount;
      const value = await this.headOnce(remove);
      if (value !== null) return value;
      const remaining = deadline === undefined ? undefined : deadline - Date.now();
      const changed =
        remaining !== undefined && remaining <= 0
          ? false
          : await watcher.waitForChange(change, remaining, options.signal);
      if (!changed) {
        throw new QueueError(
          QueueErrorCode.ABORTED,
          `take on ${this.path} timed out after ${options.timeoutMs} ms`,
          {
            path: this.path,
          },
        );
      }
    }
  }

  private watcherFor(): ChildrenWatcher {
    this.watcher ??= new ChildrenWatcher(this.client, this.path);
    return this.watcher;
  }

  /** One pass over the (cached) sorted listing: the first node that can be read (and deleted). */
  private async headOnce(remove: boolean): Promise<Buffer | null> {
    await this.ensure();
    const watcher = this.watcherFor();
    if (watcher.isStale || this.sorted.length === 0) {
      let names: string[];
      try {
        names = await watcher.list();
      } catch (error) {
        if (!isNoNode(error)) throw error;
        this.ensured = false;
        return null;
      }
      this.sorted = names.filter((name) => name.startsWith(SIMPLE_ITEM_PREFIX)).sort(compareNatural);
    }
    while (this.sorted.length > 0) {
      const name = this.sorted[0] as string;
      const itemPath = `${this.path}/${name}`;
      try {
        const { data } = await retryTransient(this.client, () => this.client.getData(itemPath));
        if (remove) await retryTransient(this.client, () => this.client.delete(itemPath));
        if (remove) this.sorted.shift();
        return Buffer.from(data ?? Buffer.alloc(0));
      } catch (error) {
        if (!isNoNode(error)) throw error;
        this.sorted.shift(); // another consumer took it first
      }
    }
    return null;
  }

  /** Stops following the queue node (the watch itself is one-shot and needs no removal). */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** `await using` support. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.close();
  }
}
