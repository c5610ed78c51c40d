/**
 * One queue node's children, listed once per snapshot with one watch (Curator's ChildrenCache, made lazy):
 * a watch event or a (re)connection only marks the listing stale; the next `list()` reads it again. So a
 * consumer that drains 10,000 items lists the children a handful of times, not once per item.
 */
import { waitFor } from './abortable.js';
import { QueueError, QueueErrorCode } from './errors.js';
import { retryTransient } from './retry.js';
import { onClientState, type QueueClient } from './zk-client.js';

/** Bytes a name costs in a GetChildren reply besides its characters (the 4-byte length). */
const PER_NAME_OVERHEAD = 4;
/** Assumed name length before anything was listed (`queue-|<11 hex>|<10 digits>` is 29). */
const DEFAULT_NAME_LENGTH = 40;

/** Options of {@link ChildrenWatcher}. */
export interface ChildrenWatcherOptions {
  /**
   * Largest listing reply to ask for, in bytes: keep it at or below the client's `maxFrameLength` (4 MiB by
   * default). A queue whose listing would be larger fails with `LISTING_TOO_LARGE` instead of a reply that the
   * client must refuse (which would drop the connection on every attempt). Default 4 MiB - 64 KiB.
   */
  listingLimitBytes?: number;
  /** Ends waits and retries. */
  signal?: AbortSignal | undefined;
}

/** Lists the children of one node on demand and reports when that listing went stale. */
export class ChildrenWatcher {
  private stale = true;
  private changes = 0;
  private readonly wakers = new Set<() => void>();
  private readonly unsubscribeState: () => void;
  private readonly limit: number;
  private averageNameLength = DEFAULT_NAME_LENGTH;
  private lastCount = -1;
  /** Number of listings made (tests and the bench count them). */
  listings = 0;

  constructor(
    private readonly client: QueueClient,
    readonly path: string,
    private readonly options: ChildrenWatcherOptions = {},
  ) {
    this.limit = options.listingLimitBytes ?? 4 * 1024 * 1024 - 64 * 1024;
    // A new connection may have missed events (and a new session lost the watch): list again.
    this.unsubscribeState = onClientState(client, (state) => {
      if (state === 'connected' || state === 'reconnected' || state === 'read-only') this.markStale();
    });
  }

  /** One callback object for every listing, so the client keeps one watch registration, not one per list. */
  private readonly onWatch = (): void => this.markStale();

  /** True when the children may have changed since the last listing. */
  get isStale(): boolean {
    return this.stale;
  }

  /** Counts the changes seen; compare two readings to learn whether anything happened in between. */
  get changeCount(): number {
    return this.changes;
  }

  /** Marks the listing stale and wakes every waiter (watch events, reconnections, released item locks). */
  markStale(): void {
    this.stale = true;
    this.changes++;
    for (const wake of [...this.wakers]) wake();
  }

  /** Waits until a change after `sinceChange` (true) or `timeoutMs` (false); rejects when a signal fires. */
  waitForChange(sinceChange: number, timeoutMs?: number, signal?: AbortSignal): Promise<boolean> {
    if (this.changes !== sinceChange) return Promise.resolve(true);
    const signals = [this.options.signal, signal].filter((s): s is AbortSignal => s !== undefined);
    return waitFor(
      (wake) => {
        this.wakers.add(wake);
        return () => this.wakers.delete(wake);
      },
      { timeoutMs, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] },
    );
  }

  /** Lists the children and arms the watch in the same request. */
  async list(): Promise<string[]> {
    await this.checkListingSize();
    this.stale = false;
    let children: string[];
    try {
      children = await retryTransient(
        this.client,
        () => this.client.getChildren(this.path, { watch: this.onWatch }),
        { signal: this.options.signal },
      );
    } catch (error) {
      this.stale = true;
      throw error;
    }
    this.listings++;
    this.lastCount = children.length;
    if (children.length > 0) {
      let total = 0;
      for (const name of children) total += name.length;
      this.averageNameLength = Math.max(total / children.length, 1);
    }
    return children;
  }

  /**
   * Before a listing that might not fit in one reply, asks for the child count (a Stat, a few bytes) and
   * refuses with a clear error when the names would exceed the limit. Small queues skip the extra call.
   */
  private async checkListingSize(): Promise<void> {
    const perName = this.averageNameLength + PER_NAME_OVERHEAD;
    if (this.lastCount >= 0 && this.lastCount * perName * 2 < this.limit) return;
    const stat = await retryTransient(this.client, () => this.client.exists(this.path), {
      signal: this.options.signal,
    });
    if (stat === null) return;
    const estimate = Math.ceil(stat.numChildren * perName);
    if (estimate > this.limit) {
      throw new QueueError(
        QueueErrorCode.LISTING_TOO_LARGE,
        `${this.path} has ${stat.numChildren} children: listing them takes about ${estimate} bytes, over the ` +
          `${this.limit}-byte listing limit. Raise the client's maxFrameLength and the queue's listingLimitBytes ` +
          '(ZooKeeper cannot page a listing), or shard the queue.',
        { path: this.path },
      );
    }
  }

  /** Stops following connection states; pending waits end through the signal. */
  close(): void {
    this.unsubscribeState();
    for (const wake of [...this.wakers]) wake();
  }
}
