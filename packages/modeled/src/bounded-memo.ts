/**
 * A memo of at most `capacity` entries. When it is full, the next new entry starts it over: that costs one
 * miss per key kept, where an LRU order would cost a move on every hit, and hits are what a memo is for.
 */
export class BoundedMemo<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `value` under `key` (after clearing the memo when it is full) and returns it. */
  keep(key: K, value: V): V {
    if (this.#entries.size >= this.capacity) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }
}
