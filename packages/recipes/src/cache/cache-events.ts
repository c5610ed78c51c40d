/**
 * What a cache reports (Curator's `CuratorCacheListener` events) and the bounded buffer behind
 * `cache.events()`, the async-iterable form of the same events.
 *
 * Overflow policy: each iteration has its own buffer of `bufferSize` events (default 10,000). When a consumer
 * falls that far behind, the buffered events are still delivered, then the iteration throws
 * `CacheEventsOverflowError` (code `EVENTS_OVERFLOW`) instead of silently skipping events. The cache itself is
 * unaffected and stays current: the consumer re-reads what it needs from the cache and starts a new
 * iteration. A consumer that must never miss an event uses the listeners, which run synchronously.
 */
import { CacheEventsOverflowError, InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import type { ChildData } from './cache-types.js';

/** A node appeared in the cache. */
export interface CacheCreatedEvent {
  readonly type: 'created';
  readonly path: string;
  readonly oldData: undefined;
  readonly data: ChildData;
}
/** A cached node's data version changed (or it was replaced by a new node of the same path). */
export interface CacheChangedEvent {
  readonly type: 'changed';
  readonly path: string;
  readonly oldData: ChildData;
  readonly data: ChildData;
}
/** A node left the cache. */
export interface CacheDeletedEvent {
  readonly type: 'deleted';
  readonly path: string;
  readonly oldData: ChildData;
  readonly data: undefined;
}
/** The initial load finished (once per cache). */
export interface CacheInitializedEvent {
  readonly type: 'initialized';
}

/** Every event of a cache, as `cache.events()` yields them. */
export type CacheEvent = CacheCreatedEvent | CacheChangedEvent | CacheDeletedEvent | CacheInitializedEvent;

/** Listener signatures of a cache (`cache.on(name, listener)`). */
export interface CuratorCacheEvents {
  /** A node appeared: `data` is the new node. */
  created: [data: ChildData];
  /** A node changed: the entry before and after. */
  changed: [oldData: ChildData, data: ChildData];
  /** A node left the cache: the last entry it had. */
  deleted: [oldData: ChildData];
  /** Every create, change or delete as one event object (what `events()` yields). */
  event: [event: CacheEvent];
  /** The initial load finished. */
  initialized: [];
  /** A background read failed in a way a reconnect will not repair (NoAuth, ...), or a listener threw. */
  error: [error: unknown];
}

/** Options of `cache.events()`. */
export interface CacheEventsOptions {
  /** Events held for a slow consumer before the iteration fails with EVENTS_OVERFLOW. Default 10,000. */
  bufferSize?: number;
  /** Ends the iteration (it returns normally). */
  signal?: AbortSignal;
}

/** Default size of an events() buffer. */
export const DEFAULT_EVENT_BUFFER_SIZE = 10_000;

/**
 * A fixed-capacity ring of events for one consumer: push is O(1), take is O(1), and nothing shifts an array.
 * Ends with `end()` (done) or with an overflow (throws once the buffered events are drained).
 */
export class EventBuffer implements AsyncIterableIterator<CacheEvent> {
  private readonly ring: (CacheEvent | undefined)[];
  private head = 0;
  private count = 0;
  private ended = false;
  private overflowed = false;
  private waiter: ((result: IteratorResult<CacheEvent>) => void) | undefined;
  private readonly onReturn: () => void;

  constructor(capacity: number, onReturn: () => void) {
    this.ring = new Array(capacity);
    this.onReturn = onReturn;
  }

  /** Validates a buffer size option. */
  static capacityOf(options: CacheEventsOptions | undefined): number {
    const size = options?.bufferSize ?? DEFAULT_EVENT_BUFFER_SIZE;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) {
      throw new InvalidRecipeArgumentError('bufferSize', `must be an integer >= 1, got ${String(size)}`);
    }
    return size;
  }

  get isEnded(): boolean {
    return this.ended || this.overflowed;
  }

  push(event: CacheEvent): void {
    if (this.isEnded) return;
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.clearWaiter();
      waiter({ value: event, done: false });
      return;
    }
    if (this.count === this.ring.length) {
      this.overflowed = true;
      this.onReturn();
      return;
    }
    this.ring[(this.head + this.count) % this.ring.length] = event;
    this.count++;
  }

  /** No more events: the iteration finishes once the buffered ones are taken. */
  end(): void {
    if (this.isEnded) return;
    this.ended = true;
    const waiter = this.waiter;
    this.clearWaiter();
    waiter?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<CacheEvent>> {
    if (this.count > 0) {
      const event = this.ring[this.head] as CacheEvent;
      this.ring[this.head] = undefined;
      this.head = (this.head + 1) % this.ring.length;
      this.count--;
      return Promise.resolve({ value: event, done: false });
    }
    if (this.overflowed) {
      this.ended = true;
      this.overflowed = false;
      return Promise.reject(new CacheEventsOverflowError(this.ring.length));
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  return(): Promise<IteratorResult<CacheEvent>> {
    this.count = 0;
    this.ring.fill(undefined);
    if (!this.isEnded) this.onReturn();
    this.overflowed = false;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<CacheEvent> {
    return this;
  }

  private clearWaiter(): void {
    this.waiter = undefined;
  }
}
