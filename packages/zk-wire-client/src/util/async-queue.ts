/**
 * A push-to-pull queue: producers `push` values, one consumer reads them with `for await`. Used for the
 * `states()` stream and persistent watches. The producers (state changes, watch events) are driven by the
 * server, which cannot be slowed down without stalling every other caller, so the queue does not push back;
 * it buffers in a ring (taking the head is O(1), so draining a large backlog costs linear time) up to a bound.
 *
 * Overflow policy: a consumer that falls `capacity` values behind has missed the point of a stream that must
 * be complete (a cache built on watch events would silently diverge), so the queue ends instead of dropping:
 * the consumer reads every value buffered so far, then its next read throws {@link EventOverflowError}, and
 * `onReturn` runs at once (a persistent watch is removed, so the server stops sending). The consumer re-reads
 * the state it follows and starts a new stream.
 */
import { ZooKeeperError } from './errors.js';

/** Default bound of an {@link AsyncQueue}: unread values a slow consumer may have before the stream ends. */
export const DEFAULT_QUEUE_CAPACITY = 100_000;

/**
 * A stream ended because its consumer fell too far behind (code `EVENTOVERFLOW`): the values before the
 * overflow were delivered, later ones were not. Re-read what the stream followed and start a new one.
 */
export class EventOverflowError extends ZooKeeperError {
  /** The bound that was reached. */
  readonly capacity: number;
  constructor(capacity: number, context: { path?: string; operation?: string } = {}) {
    super('EVENTOVERFLOW', -1, `The consumer fell ${capacity} events behind; the stream ended`, context);
    this.capacity = capacity;
  }
}

/** A growable ring buffer: push at the tail, shift at the head, both O(1) (amortised). */
class Ring<T> {
  private items: (T | undefined)[] = new Array(16);
  private head = 0;
  size = 0;

  push(value: T): void {
    if (this.size === this.items.length) this.grow();
    this.items[(this.head + this.size) & (this.items.length - 1)] = value;
    this.size++;
  }

  shift(): T {
    const value = this.items[this.head] as T;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.size--;
    return value;
  }

  clear(): void {
    this.items = new Array(16);
    this.head = 0;
    this.size = 0;
  }

  /** Doubles the capacity (always a power of two, so that an index wraps with a mask). */
  private grow(): void {
    const old = this.items;
    const next: (T | undefined)[] = new Array(old.length * 2);
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) & (old.length - 1)];
    this.items = next;
    this.head = 0;
  }
}

/** The consumer's pending read, while it waits for a value. */
interface Waiting<T> {
  resolve: (r: IteratorResult<T>) => void;
  reject: (e: unknown) => void;
}

/** A bounded push-to-pull queue (see the module comment for its overflow policy). */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer = new Ring<T>();
  private waiting: Waiting<T> | undefined;
  private failure: unknown;
  private ended = false;
  private returned = false;

  /**
   * `onReturn` runs once when the consumer stops early (break, return, abort) or the queue overflows.
   * `capacity`: the most unread values kept (default {@link DEFAULT_QUEUE_CAPACITY}).
   */
  constructor(
    private readonly onReturn?: () => void,
    private readonly capacity: number = DEFAULT_QUEUE_CAPACITY,
  ) {}

  /** Delivers a value (dropped after the end; ends the queue with EventOverflowError past the capacity). */
  push(value: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ value, done: false });
    } else if (this.buffer.size >= this.capacity) {
      this.end(new EventOverflowError(this.capacity));
      this.runOnReturn();
    } else {
      this.buffer.push(value);
    }
  }

  /** Ends the stream after the buffered values; with an error, the consumer's next read throws it. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) this.settle(waiting);
  }

  /** True once ended. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Values pushed and not yet read. */
  get buffered(): number {
    return this.buffer.size;
  }

  private settle(waiting: Waiting<T>): void {
    const failure = this.failure;
    if (failure !== undefined) {
      this.failure = undefined;
      waiting.reject(failure);
    } else {
      waiting.resolve({ value: undefined, done: true });
    }
  }

  private runOnReturn(): void {
    if (this.returned) return;
    this.returned = true;
    this.onReturn?.();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.size > 0) return Promise.resolve({ value: this.buffer.shift(), done: false });
    return new Promise((resolve, reject) => {
      if (this.ended) this.settle({ resolve, reject });
      else this.waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.end();
      this.runOnReturn();
    }
    this.buffer.clear();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
