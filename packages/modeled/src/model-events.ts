/**
 * The bounded buffer behind `cached.events()`: one per consumer. A consumer more than `bufferSize` events
 * behind gets the buffered events, then {@link ModelEventsOverflowError}, instead of silently missing some;
 * the cache itself stays current.
 */
import { InvalidModelArgumentError, ModelEventsOverflowError } from './errors.js';
import type { ZNode } from './modeled-framework.js';

/** A change of a cached model: the node's path, Stat and model (the last model it had, for `deleted`). */
export interface ModelCacheEvent<T> extends ZNode<T> {
  readonly type: 'created' | 'changed' | 'deleted';
}

/** Options of `cached.events()`. */
export interface ModelEventsOptions {
  /** Events held for a slow consumer before the iteration fails with EVENTS_OVERFLOW. Default 10,000. */
  bufferSize?: number;
  /** Ends the iteration (it returns normally). */
  signal?: AbortSignal;
}

const DEFAULT_BUFFER_SIZE = 10_000;

/** One consumer's queue of events. */
export class ModelEventBuffer<T> implements AsyncIterableIterator<ModelCacheEvent<T>> {
  readonly #events: ModelCacheEvent<T>[] = [];
  readonly #capacity: number;
  readonly #onEnd: () => void;
  #head = 0;
  #ended = false;
  #overflowed = false;
  #waiter: ((result: IteratorResult<ModelCacheEvent<T>>) => void) | undefined;

  constructor(options: ModelEventsOptions | undefined, onEnd: () => void) {
    const size = options?.bufferSize ?? DEFAULT_BUFFER_SIZE;
    if (!Number.isInteger(size) || size < 1) {
      throw new InvalidModelArgumentError(
        'events',
        `bufferSize must be an integer >= 1, got ${String(size)}`,
      );
    }
    this.#capacity = size;
    this.#onEnd = onEnd;
  }

  push(event: ModelCacheEvent<T>): void {
    if (this.#ended || this.#overflowed) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
      return;
    }
    if (this.#events.length - this.#head >= this.#capacity) {
      this.#overflowed = true;
      this.#onEnd();
      return;
    }
    this.#events.push(event);
  }

  /** No more events: the iteration finishes once the buffered ones are taken. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onEnd();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<ModelCacheEvent<T>>> {
    if (this.#head < this.#events.length) {
      const value = this.#events[this.#head++] as ModelCacheEvent<T>;
      if (this.#head > 1024 && this.#head * 2 > this.#events.length) {
        this.#events.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#overflowed) {
      this.#ended = true;
      this.#overflowed = false;
      return Promise.reject(new ModelEventsOverflowError(this.#capacity));
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    // A waiting consumer is never behind: events go straight to it, so only end() settles it otherwise.
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  return(): Promise<IteratorResult<ModelCacheEvent<T>>> {
    this.#events.length = 0;
    this.#head = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
