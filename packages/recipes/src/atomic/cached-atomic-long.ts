/**
 * CachedAtomicLong: ids from a {@link DistributedAtomicLong}, a range of `cacheFactor` at a time (Curator's
 * `CachedAtomicLong`, interoperable with it on the same counter).
 */
import { INT64_LAYOUT } from './atomic-number.js';
import { CachedAtomicNumber } from './cached-atomic-number.js';
import { DistributedAtomicLong } from './distributed-atomic-long.js';

/** Hands out int64 ids (bigints) from ranges taken from a DistributedAtomicLong. */
export class CachedAtomicLong extends CachedAtomicNumber<bigint, bigint | number> {
  /**
   * @param number the shared counter; every allocator of one id space uses the same counter path
   * @param cacheFactor how many ids one range holds (an integer from 1 to 2^31 − 1)
   */
  constructor(number: DistributedAtomicLong, cacheFactor: number) {
    super(INT64_LAYOUT, number, DistributedAtomicLong, cacheFactor);
  }
}
