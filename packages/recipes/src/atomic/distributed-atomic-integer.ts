/**
 * DistributedAtomicInteger: an int32 counter in one znode, 4 bytes big-endian (Curator's
 * `DistributedAtomicInteger`, curator-compat.md §12.3), the same bytes as a SharedCount. Missing or empty data
 * reads as 0; arithmetic wraps at 32 bits as Java's `int` does.
 */

import type { ValueClient } from '../shared/value-client.js';
import { checkInt32, decodeAtomicInt32, encodeInt32 } from './big-endian-codec.js';
import {
  type AtomicCallOptions,
  type AtomicValue,
  type DistributedAtomicOptions,
  DistributedAtomicValue,
} from './distributed-atomic-value.js';

/** A distributed int32 counter. */
export class DistributedAtomicInteger implements AsyncDisposable {
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
  async get(): Promise<AtomicValue<number>> {
    return this.decode(await this.value.get());
  }

  /** Adds 1. */
  increment(options?: AtomicCallOptions): Promise<AtomicValue<number>> {
    return this.add(1, options);
  }

  /** Subtracts 1. */
  decrement(options?: AtomicCallOptions): Promise<AtomicValue<number>> {
    return this.add(-1, options);
  }

  /** Adds `delta` (wrapping at 32 bits). */
  async add(delta: number, options?: AtomicCallOptions): Promise<AtomicValue<number>> {
    const by = checkInt32(delta, 'delta');
    const result = await this.value.update(
      (bytes) => encodeInt32((decodeAtomicInt32(bytes, this.path) + by) | 0),
      options,
    );
    return this.decode(result);
  }

  /** Subtracts `delta` (wrapping at 32 bits). */
  async subtract(delta: number, options?: AtomicCallOptions): Promise<AtomicValue<number>> {
    return this.add(-checkInt32(delta, 'delta') | 0, options);
  }

  /** Sets `value` when the node holds `expected`, in one versioned write. */
  async compareAndSet(expected: number, value: number): Promise<AtomicValue<number>> {
    const result = await this.value.compareAndSet(
      encodeInt32(checkInt32(expected, 'expected')),
      encodeInt32(checkInt32(value, 'value')),
    );
    return this.decode(result);
  }

  /** Sets `value` with optimistic retries. */
  async trySet(value: number, options?: AtomicCallOptions): Promise<AtomicValue<number>> {
    return this.decode(await this.value.trySet(encodeInt32(checkInt32(value)), options));
  }

  /** Writes `value` whatever the node holds. */
  async forceSet(value: number): Promise<void> {
    return this.value.forceSet(encodeInt32(checkInt32(value)));
  }

  /** Creates the node with `value`; false when it already exists. */
  async initialize(value: number): Promise<boolean> {
    return this.value.initialize(encodeInt32(checkInt32(value)));
  }

  private decode(result: AtomicValue<Uint8Array | null>): AtomicValue<number> {
    return {
      succeeded: result.succeeded,
      preValue: decodeAtomicInt32(result.preValue, this.path),
      postValue: decodeAtomicInt32(result.postValue, this.path),
      attempts: result.attempts,
    };
  }
}
