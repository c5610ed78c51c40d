/**
 * DistributedAtomicLong: an int64 counter in one znode, 8 bytes big-endian, updated by compare-and-set on the
 * data version (Curator's `DistributedAtomicLong`, curator/counters.md §12.3). Missing or empty data reads as
 * 0; arithmetic wraps at 64 bits as Java's `long` does.
 */
import type { ValueClient } from '../shared/value-client.js';
import { AtomicNumber, INT64_LAYOUT } from './atomic-number.js';
import type { DistributedAtomicOptions } from './distributed-atomic-value.js';

/**
 * A distributed int64 counter: `get`, `increment`, `add`, `compareAndSet`, ... Values are bigints; safe-integer
 * numbers are accepted as input.
 */
export class DistributedAtomicLong extends AtomicNumber<bigint, bigint | number> {
  constructor(client: ValueClient, path: string, options?: DistributedAtomicOptions) {
    super(INT64_LAYOUT, client, path, options);
  }
}
