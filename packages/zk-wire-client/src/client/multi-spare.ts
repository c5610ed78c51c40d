/** The record a client's multi calls check their ops into (multi-calls.ts), kept between calls. */
import { type CheckedMulti, emptyCheckedMulti } from '../protocol/multi.js';

/**
 * Longest multi whose record is kept for the next call. A record's arrays keep the length of the longest multi
 * checked into them, so one transaction of 50,000 deletes would otherwise hold ~1.6 MB of arrays for as long as
 * the client lives.
 */
const KEPT_UP_TO = 1024;

const NO_PATHS: string[] = [];

/**
 * The CheckedMulti a client's multi calls check their ops into, one per client (its ClientCore holds it): the
 * four arrays a multi needs only until its frame is built are a good part of what a multi allocates, and at
 * depth a multi's CPU goes with what it allocates (made, then collected by the young-generation GC); the
 * results array is sized once for the same reason (protocol/multi.ts). A call made while the record is in
 * use (an op's getter calling multi) checks into a record of its own.
 */
export class CheckedMultiSpare {
  /** The record kept, made by the first multi (a client that never calls multi keeps none). */
  private spare: CheckedMulti | undefined;
  private inUse = false;

  /** The record set up for `count` ops (a new `paths` array each time), or a new one if in use. */
  borrow(count: number): CheckedMulti {
    if (this.inUse) return emptyCheckedMulti(count);
    this.inUse = true;
    const checked = (this.spare ??= emptyCheckedMulti(0));
    checked.paths = new Array(count);
    return checked;
  }

  /** Lets go of what the last multi's checked ops held (its data, its paths) and keeps `checked`. */
  giveBack(checked: CheckedMulti): void {
    if (checked !== this.spare) return; // a record of its own, made while the kept one was in use
    this.inUse = false;
    const count = checked.paths.length;
    if (count > KEPT_UP_TO) {
      this.spare = undefined;
      return;
    }
    for (let i = 0; i < count; i++) {
      checked.data[i] = null;
      checked.serverPaths[i] = undefined;
    }
    checked.creates = undefined;
    checked.paths = NO_PATHS;
  }
}
