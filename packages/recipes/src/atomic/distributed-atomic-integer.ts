/**
 * DistributedAtomicInteger: an int32 counter in one znode, 4 bytes big-endian (Curator's
 * `DistributedAtomicInteger`, curator/counters.md §12.3), the same bytes as a SharedCount. Missing or empty
 * data reads as 0; arithmetic wraps at 32 bits as Java's `int` does.
 */
import type { ValueClient } from '../shared/value-client.js';
import { AtomicNumber, INT32_LAYOUT } from './atomic-number.js';
import type { DistributedAtomicOptions } from './distributed-atomic-value.js';

/** A distributed int32 counter: `get`, `increment`, `add`, `compareAndSet`, ... on numbers. */
export class DistributedAtomicInteger extends AtomicNumber<number, number> {
  constructor(client: ValueClient, path: string, options?: DistributedAtomicOptions) {
    super(INT32_LAYOUT, client, path, options);
  }
}
