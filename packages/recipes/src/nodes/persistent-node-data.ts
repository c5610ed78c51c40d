/**
 * The data a PersistentNode keeps on its node, and which `setData` calls the server holds so far: every call
 * is a new generation, the newest always wins, and a call's promise resolves true once its generation (or a
 * newer one) is on the node.
 */

/** A `setData` call still waiting for its data to reach the server. */
interface DataWaiter {
  generation: number;
  resolve: (written: boolean) => void;
}

/** The data to keep on the node, with a counter of `setData` calls so the newest always wins. */
export class KeptNodeData {
  #bytes: Uint8Array;
  #generation = 0;
  /** The newest generation known to be on the node; -1 when the node may hold someone else's data. */
  #writtenGeneration = -1;
  #waiters: DataWaiter[] = [];

  /** `initial` is generation 0, the data of the first create. */
  constructor(initial: Uint8Array) {
    this.#bytes = initial;
  }

  /** The newest data (the caller's copy is kept; hand out a copy of it). */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** The generation of {@link bytes}. */
  get generation(): number {
    return this.#generation;
  }

  /** True while the node may not hold the newest data yet. */
  get behind(): boolean {
    return this.#generation > this.#writtenGeneration;
  }

  /** Makes `bytes` the newest data; resolves true once it (or newer) is on the node, false if released first. */
  set(bytes: Uint8Array): Promise<boolean> {
    this.#bytes = bytes;
    const generation = ++this.#generation;
    return new Promise<boolean>((resolve) => this.#waiters.push({ generation, resolve }));
  }

  /** Data `generation` (or newer) is on the node: those `set` calls are done. */
  written(generation: number): void {
    this.#writtenGeneration = Math.max(this.#writtenGeneration, generation);
    const done = this.#waiters.filter((waiter) => waiter.generation <= this.#writtenGeneration);
    this.#waiters = this.#waiters.filter((waiter) => waiter.generation > this.#writtenGeneration);
    for (const waiter of done) waiter.resolve(true);
  }

  /** The node was adopted with whatever data it had: ours must be written again. */
  forgetWritten(): void {
    this.#writtenGeneration = -1;
  }

  /** Nobody will write the data any more: every waiting `set` resolves false. */
  releaseWaiters(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(false);
  }
}
