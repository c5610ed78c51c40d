/**
 * DistributedAtomicLong: an int64 counter in one znode, 8 bytes big-endian, updated by compare-and-set on the
 * data version (Curator's `DistributedAtomicLong`, curator-compat.md §12.3). Missing or empty data reads as 0;
 * arithmetic wraps at 64 bits as Java's `long` does.
 */

import type { ValueClient } from '../shared/value-client.js';
import { checkInt64, decodeAtomicInt64, encodeInt64 } from './big-endian-codec.js';
import {
  type AtomicCallOptions,
  type AtomicValue,
  type DistributedAtomicOptions,
  DistributedAtomicValue,
} from './distributed-atomic-value.js';

/** A distributed int64 counter. Values are bigints; safe-integer numbers are accepted as input. */
export class DistributedAtomicLong implements AsyncDisposable {
  private readonly value: DistributedAtomicValue;

  constructor(client: ValueClient, path: string, options?: DistributedAtomicOptions) {
    this.value = new DistributedAtomicValue(client, path, options);
  }

  /** Stops retry loops still running (they reject with ILLEGAL_STATE); the node stays. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.value[Symbol.asyncDispose]();
  }

  /** The znode path. */
  get path(): string {
    return this.value.path;
  }

  /** The current value (0 when the node is absent or empty). */
  async get(): Promise<AtomicValue<bigint>> {
    return this.decode(await this.value.get());
  }

  /** Adds 1. */
  increment(options?: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    return this.add(1n, options);
  }

  /** Subtracts 1. */
  decrement(options?: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    return this.add(-1n, options);
  }

  /** Adds `delta` (wrapping at 64 bits). */
  async add(delta: bigint | number, options?: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    const by = checkInt64(delta, 'delta');
    const result = await this.value.update(
      (bytes) => encodeInt64(BigInt.asIntN(64, decodeAtomicInt64(bytes, this.path) + by)),
      options,
    );
    return this.decode(result);
  }

  /** Subtracts `delta` (wrapping at 64 bits). */
  async subtract(delta: bigint | number, options?: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    return this.add(BigInt.asIntN(64, -checkInt64(delta, 'delta')), options);
  }

  /** Sets `value` when the node holds `expected`, in one versioned write. */
  async compareAndSet(expected: bigint | number, value: bigint | number): Promise<AtomicValue<bigint>> {
    const result = await this.value.compareAndSet(
      encodeInt64(checkInt64(expected, 'expected')),
      encodeInt64(checkInt64(value, 'value')),
    );
    return this.decode(result);
  }

  /** Sets `value` with optimistic retries. */
  async trySet(value: bigint | number, options?: AtomicCallOptions): Promise<AtomicValue<bigint>> {
    return this.decode(await this.value.trySet(encodeInt64(checkInt64(value)), options));
  }

  /** Writes `value` whatever the node holds. */
  async forceSet(value: bigint | number): Promise<void> {
    return this.value.forceSet(encodeInt64(checkInt64(value)));
  }

  /** Creates the node with `value`; false when it already exists. */
  async initialize(value: bigint | number): Promise<boolean> {
    return this.value.initialize(encodeInt64(checkInt64(value)));
  }

  private decode(result: AtomicValue<Uint8Array | null>): AtomicValue<bigint> {
    return {
      succeeded: result.succeeded,
      preValue: decodeAtomicInt64(result.preValue, this.path),
      postValue: decodeAtomicInt64(result.postValue, this.path),
      attempts: result.attempts,
    };
  }
}
