/**
 * Turns the push-style consumer loop into a pull-style async iterator: the loop's `deliver` hands the item
 * to the waiting `next()` and resolves when the next `next()` comes (the item was handled). `return()` (a
 * `break` or a throw in the loop body) rejects the delivery with ConsumerStopped, so the rest of the batch
 * goes back into the queue.
 */
import { anySignal } from './abortable.js';
import { ConsumerStopped, type ItemInfo } from './item-processor.js';

type Settle<V> = { resolve: (value: V) => void; reject: (error: unknown) => void };

/** Starts a consumer loop with the given deliver/stop functions and signal; returns its completion. */
export type LoopStarter<T> = (
  deliver: (item: T, info: ItemInfo) => Promise<void>,
  stopRequested: () => boolean,
  signal: AbortSignal,
) => Promise<void>;

/** The async iterator returned by `queue.items()`. */
export class ItemIterator<T> implements AsyncIterableIterator<T> {
  private pull: Settle<IteratorResult<T>> | undefined;
  private ack: Settle<void> | undefined;
  private loop: Promise<void> | undefined;
  private finished = false;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private readonly stopping = new AbortController();
  private readonly signal: AbortSignal;

  constructor(
    private readonly startLoop: LoopStarter<T>,
    outer: AbortSignal,
  ) {
    this.signal = anySignal(outer, this.stopping.signal);
    // A queue closing (or the caller's signal) while the loop body holds an item: stop without waiting for a
    // next() that may never come, so close() cannot hang on an abandoned iterator.
    this.signal.addEventListener('abort', () => this.stopHolding(), { once: true });
  }

  private stopHolding(): void {
    this.stopped = true;
    const ack = this.ack;
    this.ack = undefined;
    ack?.reject(new ConsumerStopped(true));
  }

  private readonly deliver = (item: T): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const pull = this.pull;
      if (this.stopped || pull === undefined) {
        reject(new ConsumerStopped(false));
        return;
      }
      this.pull = undefined;
      this.ack = { resolve, reject };
      pull.resolve({ value: item, done: false });
    });

  next(): Promise<IteratorResult<T>> {
    const ack = this.ack;
    this.ack = undefined;
    ack?.resolve();
    if (this.failure) {
      const { error } = this.failure;
      this.failure = undefined;
      this.finished = true;
      return Promise.reject(error);
    }
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    const result = new Promise<IteratorResult<T>>((resolve, reject) => {
      this.pull = { resolve, reject };
    });
    this.loop ??= this.startLoop(this.deliver, () => this.stopped || this.signal.aborted, this.signal).then(
      () => this.end(),
      (error: unknown) => this.end({ error }),
    );
    return result;
  }

  private end(failure?: { error: unknown }): void {
    const pull = this.pull;
    this.pull = undefined;
    if (failure && pull) pull.reject(failure.error);
    else if (failure) this.failure = failure;
    else pull?.resolve({ value: undefined, done: true });
    if (!failure || pull) this.finished = true;
  }

  async return(): Promise<IteratorResult<T>> {
    this.stopHolding();
    this.stopping.abort();
    await this.loop?.catch(() => {});
    this.finished = true;
    this.failure = undefined;
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
