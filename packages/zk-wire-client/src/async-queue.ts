/**
 * A push-to-pull queue: producers `push` values, one consumer reads them with `for await`. Used for the
 * `states()` stream and persistent watches. It buffers without bound: the producers (state changes, watch
 * events) are driven by the server, which cannot be slowed down without stalling every other caller.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  private failure: unknown;
  private ended = false;

  /** `onReturn` runs once when the consumer stops early (break, return, abort). */
  constructor(private readonly onReturn?: () => void) {}

  /** Delivers a value (dropped after the end). */
  push(value: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ value, done: false });
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

  private settle(waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }): void {
    const failure = this.failure;
    if (failure !== undefined) {
      this.failure = undefined;
      waiting.reject(failure);
    } else {
      waiting.resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    return new Promise((resolve, reject) => {
      if (this.ended) this.settle({ resolve, reject });
      else this.waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.end();
      this.onReturn?.();
    }
    this.buffer.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
