/**
 * A FIFO over a ring of slots whose count is a power of two: push and shift are an index and a mask, and
 * the ring doubles when full. The request pipeline pushes and shifts once per request. The array with a
 * moving head used before had two costs. At one request in flight it reset its length every time it
 * emptied, every reply: a call into the runtime. Under load it never emptied, so it grew by `push` to
 * thousands of slots, a new backing array at each growth, and was cut with `slice` now and then: arrays of
 * tens of KB, kept long enough to be promoted, that made collections (full ones too) more frequent. The
 * ring makes none of them.
 */
const INITIAL_SLOTS = 16;
/** A ring larger than this is dropped when it empties. */
const KEPT_SLOTS = 4096;

/** `n` empty slots. */
function emptySlots<T>(n: number): (T | undefined)[] {
  return new Array<T | undefined>(n).fill(undefined);
}

/** A first-in first-out queue (the requests awaiting their replies). */
export class Fifo<T> {
  private slots: (T | undefined)[] = emptySlots(INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private head = 0;
  private count = 0;

  /** Number of items. */
  get length(): number {
    return this.count;
  }

  /** Appends an item. */
  push(item: T): void {
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.head + this.count) & this.mask] = item;
    this.count++;
  }

  /** The head, without removing it. */
  peek(): T | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }

  /** Removes and returns the head. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.slots[this.head];
    // Let go of it: a settled request must not stay reachable from the ring.
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.count--;
    // Empty after a burst: give the large ring back (a client once 100,000 deep should not keep 1 MB).
    if (this.count === 0 && this.slots.length > KEPT_SLOTS) this.reset();
    return item;
  }

  /** Removes and returns every item, in order. */
  drain(): T[] {
    const out: T[] = [];
    while (this.count > 0) out.push(this.shift() as T);
    return out;
  }

  /** Iterates in order without removing. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.count; i++) yield this.slots[(this.head + i) & this.mask] as T;
  }

  private reset(): void {
    this.slots = emptySlots(INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
    this.head = 0;
  }

  /** Twice the slots, the items moved to the front in order. */
  private grow(): void {
    const size = this.slots.length;
    const next = emptySlots<T>(size * 2);
    for (let i = 0; i < size; i++) next[i] = this.slots[(this.head + i) & this.mask];
    this.slots = next;
    this.mask = size * 2 - 1;
    this.head = 0;
  }
}
