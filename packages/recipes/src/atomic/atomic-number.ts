/**
 * The arithmetic of Curator's numeric atomics, written once: DistributedAtomicInteger and DistributedAtomicLong
 * differ only in their byte width and in how they wrap, which a {@link NumberLayout} supplies, so both are
 * here, each fixing its layout. Every update is a compare-and-set round of {@link DistributedAtomicValue} on
 * the encoded bytes.
 */

import {
  checkInt32,
  checkInt64,
  decodeAtomicInt32,
  decodeAtomicInt64,
  encodeInt32,
  encodeInt64,
} from '../internal-common/big-endian-codec.js';
import type { ValueClient } from '../shared/value-client.js';
import {
  type AtomicCallOptions,
  type AtomicValue,
  type DistributedAtomicOptions,
  DistributedAtomicValue,
} from './distributed-atomic-value.js';

/** How a counter's values are checked, stored and wrapped; `T` is the value type, `In` what callers may pass. */
export interface NumberLayout<T, In> {
  /** Refuses a value outside the width with INVALID_ARGUMENT (naming `what`), else returns it as a `T`. */
  check(value: In, what?: string): T;
  encode(value: T): Uint8Array;
  /** Missing or empty data reads as 0, as in Curator. */
  decode(bytes: Uint8Array | null | undefined, path: string): T;
  /** `a + b`, wrapped at the width as Java's `int` or `long` does. */
  add(a: T, b: T): T;
  /** `-a`, wrapped (the minimum negates to itself, as in Java). */
  negate(a: T): T;
  readonly one: T;
}

/** Java `int`: numbers, 4 bytes. */
export const INT32_LAYOUT: NumberLayout<number, number> = {
  check: checkInt32,
  encode: encodeInt32,
  decode: decodeAtomicInt32,
  add: (a, b) => (a + b) | 0,
  negate: (a) => -a | 0,
  one: 1,
};

/** Java `long`: bigints (safe-integer numbers accepted as input), 8 bytes. */
export const INT64_LAYOUT: NumberLayout<bigint, bigint | number> = {
  check: checkInt64,
  encode: encodeInt64,
  decode: decodeAtomicInt64,
  add: (a, b) => BigInt.asIntN(64, a + b),
  negate: (a) => BigInt.asIntN(64, -a),
  one: 1n,
};

/** A distributed counter of one {@link NumberLayout}; the public classes fix the layout. */
export class AtomicNumber<T, In> implements AsyncDisposable {
  readonly #value: DistributedAtomicValue;
  readonly #layout: NumberLayout<T, In>;

  protected constructor(
    layout: NumberLayout<T, In>,
    client: ValueClient,
    path: string,
    options?: DistributedAtomicOptions,
  ) {
    this.#layout = layout;
    this.#value = new DistributedAtomicValue(client, path, options);
  }

  /** Stops retry loops still running (they reject with ILLEGAL_STATE); the node stays. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.#value[Symbol.asyncDispose]();
  }

  /** The znode path. */
  get path(): string {
    return this.#value.path;
  }

  /** The current value (0 when the node is absent or empty). */
  async get(): Promise<AtomicValue<T>> {
    return this.#decode(await this.#value.get());
  }

  /** Adds 1. */
  increment(options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    return this.#add(this.#layout.one, options);
  }

  /** Subtracts 1. */
  decrement(options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    return this.#add(this.#layout.negate(this.#layout.one), options);
  }

  /** Adds `delta`, wrapping at the width. */
  add(delta: In, options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    return this.#add(this.#layout.check(delta, 'delta'), options);
  }

  /** Subtracts `delta`, wrapping at the width. */
  subtract(delta: In, options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    return this.#add(this.#layout.negate(this.#layout.check(delta, 'delta')), options);
  }

  /** Sets `value` when the node holds `expected`, in one versioned write. */
  async compareAndSet(expected: In, value: In): Promise<AtomicValue<T>> {
    const { check, encode } = this.#layout;
    const result = await this.#value.compareAndSet(
      encode(check(expected, 'expected')),
      encode(check(value, 'value')),
    );
    return this.#decode(result);
  }

  /** Sets `value` with optimistic retries. */
  async trySet(value: In, options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    const { check, encode } = this.#layout;
    return this.#decode(await this.#value.trySet(encode(check(value)), options));
  }

  /** Writes `value` whatever the node holds. */
  forceSet(value: In): Promise<void> {
    const { check, encode } = this.#layout;
    return this.#value.forceSet(encode(check(value)));
  }

  /** Creates the node with `value`; false when it already exists. */
  initialize(value: In): Promise<boolean> {
    const { check, encode } = this.#layout;
    return this.#value.initialize(encode(check(value)));
  }

  async #add(by: T, options: AtomicCallOptions | undefined): Promise<AtomicValue<T>> {
    const { add, decode, encode } = this.#layout;
    const result = await this.#value.update((bytes) => encode(add(decode(bytes, this.path), by)), options);
    return this.#decode(result);
  }

  #decode(result: AtomicValue<Uint8Array | null>): AtomicValue<T> {
    const { decode } = this.#layout;
    return {
      succeeded: result.succeeded,
      preValue: decode(result.preValue, this.path),
      postValue: decode(result.postValue, this.path),
      attempts: result.attempts,
      stats: result.stats,
    };
  }
}

/**
 * DistributedAtomicInteger: an int32 counter in one znode, 4 bytes big-endian (Curator's
 * `DistributedAtomicInteger`, curator/counters.md §12.3), the same bytes as a SharedCount. Missing or empty
 * data reads as 0; arithmetic wraps at 32 bits as Java's `int` does.
 */
export class DistributedAtomicInteger extends AtomicNumber<number, number> {
  constructor(client: ValueClient, path: string, options?: DistributedAtomicOptions) {
    super(INT32_LAYOUT, client, path, options);
  }
}

/**
 * DistributedAtomicLong: an int64 counter in one znode, 8 bytes big-endian, updated by compare-and-set on the
 * data version (Curator's `DistributedAtomicLong`, curator/counters.md §12.3). Missing or empty data reads as
 * 0; arithmetic wraps at 64 bits as Java's `long` does. Values are bigints; safe-integer numbers are accepted
 * as input.
 */
export class DistributedAtomicLong extends AtomicNumber<bigint, bigint | number> {
  constructor(client: ValueClient, path: string, options?: DistributedAtomicOptions) {
    super(INT64_LAYOUT, client, path, options);
  }
}
