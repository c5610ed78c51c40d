/**
 * The read-write lock's node names and predicates (curator/locks.md §4). Readers and writers are children of
 * one path: `_c_<uuid>-__READ__<seq>` and `_c_<uuid>-__WRIT__<seq>`, sorted by the text after the last
 * `__READ__`, then after the last `__WRIT__`.
 */
import type { ContenderPredicate } from './lock-internals.js';

/** Curator's read contender name (exactly 8 characters). */
export const READ_LOCK_NAME = '__READ__';
/** Curator's write contender name (exactly 8 characters). */
export const WRITE_LOCK_NAME = '__WRIT__';
/** The sort rule of the read-write lock: strip after `__READ__`, then after `__WRIT__`. */
export const READ_WRITE_SORT_NAMES = [READ_LOCK_NAME, WRITE_LOCK_NAME] as const;

/**
 * Curator's readLockPredicate: granted at once when this object holds the write lock; otherwise walk the
 * sorted children up to our own node (the first child whose name starts with ours), granted when no writer
 * comes before it, else wait on the FIRST writer.
 */
export function readLockPredicate(ownsWriteLock: () => boolean): ContenderPredicate {
  return (sorted, ourName) => {
    if (ownsWriteLock()) return { acquired: true };
    let firstWriteIndex = -1;
    let ourIndex = -1;
    for (let i = 0; i < sorted.length; i++) {
      const child = sorted[i] as string;
      if (firstWriteIndex < 0 && child.includes(WRITE_LOCK_NAME)) firstWriteIndex = i;
      if (child.startsWith(ourName)) {
        ourIndex = i;
        break;
      }
    }
    if (ourIndex < 0) return undefined;
    if (firstWriteIndex < 0) return { acquired: true };
    return { acquired: false, watch: sorted[firstWriteIndex] as string };
  };
}
