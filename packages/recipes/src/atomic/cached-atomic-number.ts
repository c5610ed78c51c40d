/**
 * The id-range allocator of Curator's CachedAtomicLong and CachedAtomicInteger, written once (both are here,
 * each fixing its layout and counter class): `next()` hands out the values of a range of `cacheFactor` ids
 * taken from a distributed counter with one atomic add, and takes a new range when this one is used up. Ranges
 * taken by different instances (on any session, Java or Node) never overlap, since each is the counter's value
 * before an add that succeeded.
 */
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import {
  type AtomicNumber,
  DistributedAtomicInteger,
  DistributedAtomicLong,
  INT32_LAYOUT,
  INT64_LAYOUT,
  type NumberLayout,
} from './atomic-number.js';
import { type AtomicCallOptions, type AtomicValue, NO_STATS } from './distributed-atomic-value.js';

/** Curator's cacheFactor is a Java `int`. */
const MAX_CACHE_FACTOR = 2 ** 31 - 1;

interface Range<T> {
  readonly first: T;
  used: number;
}

/** An id allocator over one {@link AtomicNumber}; the public classes fix the layout. */
export class CachedAtomicNumber<T, In> {
  readonly #number: AtomicNumber<T, In>;
  readonly #layout: NumberLayout<T, In>;
  /** The ids in one range. */
  readonly cacheFactor: number;
  #range: Range<T> | undefined;
  /** The call in progress: calls run one after the other, so two never take a range for one id. */
  #queue: Promise<unknown> = Promise.resolve();

  protected constructor(
    layout: NumberLayout<T, In>,
    number: AtomicNumber<T, In>,
    numberClass: abstract new (...args: never[]) => AtomicNumber<T, In>,
    cacheFactor: number,
  ) {
    if (!(number instanceof numberClass)) {
      throw new InvalidRecipeArgumentError('number', `must be a ${numberClass.name}`);
    }
    if (typeof cacheFactor !== 'number' || !Number.isInteger(cacheFactor) || cacheFactor < 1) {
      throw new InvalidRecipeArgumentError(
        'cacheFactor',
        `must be an integer >= 1, got ${String(cacheFactor)}`,
      );
    }
    if (cacheFactor > MAX_CACHE_FACTOR) {
      throw new InvalidRecipeArgumentError('cacheFactor', `must be at most ${MAX_CACHE_FACTOR} (a Java int)`);
    }
    this.#layout = layout;
    this.#number = number;
    this.cacheFactor = cacheFactor;
  }

  /**
   * The next id as `preValue` (`postValue` is the id plus one, as Curator's). When a new range is needed and
   * the counter's add lost every round, `succeeded` is false, no id is handed out, and the next call tries
   * again. The call that takes a range carries the add's stats; the others count no tries.
   */
  next(options?: AtomicCallOptions): Promise<AtomicValue<T>> {
    const result = this.#queue.then(() => this.#next(options));
    this.#queue = result.catch(() => {});
    return result;
  }

  async #next(options: AtomicCallOptions | undefined): Promise<AtomicValue<T>> {
    const { add, check } = this.#layout;
    // Both layouts take numbers as input (`In` is `number` or `bigint | number`), hence the casts.
    const fromIndex = (index: number): T => check(index as In);
    let stats = NO_STATS;
    let attempts = 0;
    if (this.#range === undefined) {
      const taken = await this.#number.add(this.cacheFactor as In, options);
      if (!taken.succeeded) {
        const zero = fromIndex(0);
        return { ...taken, preValue: zero, postValue: zero };
      }
      this.#range = { first: taken.preValue, used: 0 };
      stats = taken.stats;
      attempts = taken.attempts;
    }
    const range = this.#range;
    const id = add(range.first, fromIndex(range.used));
    range.used += 1;
    if (range.used >= this.cacheFactor) this.#range = undefined;
    return { succeeded: true, preValue: id, postValue: add(id, this.#layout.one), attempts, stats };
  }
}

/**
 * CachedAtomicInteger: ids from a {@link DistributedAtomicInteger}, a range of `cacheFactor` at a time (Curator's
 * `CachedAtomicInteger`, interoperable with it on the same counter). Ids wrap at 32 bits as Java's `int` does.
 */
export class CachedAtomicInteger extends CachedAtomicNumber<number, number> {
  /**
   * @param number the shared counter; every allocator of one id space uses the same counter path
   * @param cacheFactor how many ids one range holds (an integer from 1 to 2^31 − 1)
   */
  constructor(number: DistributedAtomicInteger, cacheFactor: number) {
    super(INT32_LAYOUT, number, DistributedAtomicInteger, cacheFactor);
  }
}

/**
 * CachedAtomicLong: ids (bigints) from a {@link DistributedAtomicLong}, a range of `cacheFactor` at a time
 * (Curator's `CachedAtomicLong`, interoperable with it on the same counter).
 */
export class CachedAtomicLong extends CachedAtomicNumber<bigint, bigint | number> {
  /**
   * @param number the shared counter; every allocator of one id space uses the same counter path
   * @param cacheFactor how many ids one range holds (an integer from 1 to 2^31 − 1)
   */
  constructor(number: DistributedAtomicLong, cacheFactor: number) {
    super(INT64_LAYOUT, number, DistributedAtomicLong, cacheFactor);
  }
}
