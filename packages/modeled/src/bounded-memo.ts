/**
 * After a full memo whose entries were hit fewer times than there are entries, this many times its capacity
 * of values are given back without being kept (see BoundedMemo).
 */
const REST_FACTOR = 16;

/**
 * A memo of at most `capacity` entries, for values cheap to make once but costly to make on every call.
 * When it is full, the next new entry starts it over: that costs one miss per key kept, where an LRU order
 * would cost a move on every hit. A memo too small for the keys in use would only cost: each entry lives
 * long enough for the garbage collector to move it to the old generation, then is dropped before its next
 * use. So when a full memo's entries were hit fewer times than there are entries, it rests: the next
 * `REST_FACTOR * capacity` values are given back without being kept, then it tries again.
 */
export class BoundedMemo<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();
  #hits = 0;
  #resting = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** True while values are given back without being kept. */
  get isResting(): boolean {
    return this.#resting > 0;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) this.#hits++;
    return value;
  }

  /** Keeps `value` under `key` (unless resting; see the class) and returns it. */
  keep(key: K, value: V): V {
    if (this.#resting > 0) {
      this.#resting--;
      return value;
    }
    if (this.#entries.size >= this.capacity) {
      const paidOff = this.#hits >= this.capacity;
      this.#entries.clear();
      this.#hits = 0;
      if (!paidOff) {
        this.#resting = REST_FACTOR * this.capacity;
        return value;
      }
    }
    this.#entries.set(key, value);
    return value;
  }
}
