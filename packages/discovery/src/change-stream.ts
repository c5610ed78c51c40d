/**
 * Async iteration over a cache's successive states: each iterator gets every value pushed after it was made,
 * in order, and ends when the cache closes (or with the error it closed with). Leaving a `for await` loop
 * unregisters the iterator, so nothing stays behind.
 */

/** One consumer's queue. */
class ChangeIterator<T> implements AsyncIterableIterator<T> {
  readonly #values: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;
  readonly #detach: (iterator: ChangeIterator<T>) => void;

  constructor(detach: (iterator: ChangeIterator<T>) => void) {
    this.#detach = detach;
  }

  push(value: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting({ value, done: false });
    else this.#values.push(value);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#detach(this);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#values.length > 0) return Promise.resolve({ value: this.#values.shift() as T, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.#values.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** The set of live iterators of one source. */
export class ChangeStream<T> {
  readonly #iterators = new Set<ChangeIterator<T>>();
  #ended = false;

  /** A new iterator; `first` (the current state) is its first value when given. */
  iterate(first?: T): AsyncIterableIterator<T> {
    const iterator = new ChangeIterator<T>((it) => this.#iterators.delete(it));
    if (first !== undefined) iterator.push(first);
    if (this.#ended) iterator.end();
    else this.#iterators.add(iterator);
    return iterator;
  }

  push(value: T): void {
    for (const iterator of this.#iterators) iterator.push(value);
  }

  /** Ends every iterator (after the values they still hold); later iterators end at once. */
  end(): void {
    this.#ended = true;
    for (const iterator of [...this.#iterators]) iterator.end();
  }

  get size(): number {
    return this.#iterators.size;
  }
}
