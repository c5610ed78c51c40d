/**
 * CachedAtomicInteger: ids from a {@link DistributedAtomicInteger}, a range of `cacheFactor` at a time (Curator's
 * `CachedAtomicInteger`, interoperable with it on the same counter). Ids wrap at 32 bits as Java's `int` does.
 */
import { INT32_LAYOUT } from './atomic-number.js';
import { CachedAtomicNumber } from './cached-atomic-number.js';
import { DistributedAtomicInteger } from './distributed-atomic-integer.js';

/** Hands out int32 ids from ranges taken from a DistributedAtomicInteger. */
export class CachedAtomicInteger extends CachedAtomicNumber<number, number> {
  /**
   * @param number the shared counter; every allocator of one id space uses the same counter path
   * @param cacheFactor how many ids one range holds (an integer from 1 to 2^31 − 1)
   */
  constructor(number: DistributedAtomicInteger, cacheFactor: number) {
    super(INT32_LAYOUT, number, DistributedAtomicInteger, cacheFactor);
  }
}
