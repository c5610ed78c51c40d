/**
 * Curator's contender ordering (curator/locks.md §2.2, §4.2): the sort key is the text after the LAST
 * occurrence of the lock name, or the whole name when it has none; keys compare by UTF-16 code units
 * (Java `String.compareTo`, JS `<`), and the sort is stable.
 */

/** `StandardLockInternalsDriver.fixForSorting`. */
export function sortKeyOf(name: string, lockName: string): string {
  const index = name.lastIndexOf(lockName);
  return index >= 0 ? name.slice(index + lockName.length) : name;
}

/** The read-write lock's key: the rule applied with `__READ__`, then again with `__WRIT__`. */
export function sortKeyOfMany(name: string, lockNames: readonly string[]): string {
  let key = name;
  for (const lockName of lockNames) key = sortKeyOf(key, lockName);
  return key;
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Sorts children as Curator does, stable, without touching the input. */
export function sortContenders(children: readonly string[], lockNames: string | readonly string[]): string[] {
  const names = typeof lockNames === 'string' ? [lockNames] : lockNames;
  // Array.prototype.sort is stable (ES2019), so equal keys keep getChildren order, like Java's TimSort.
  return children
    .map((name) => ({ name, key: sortKeyOfMany(name, names) }))
    .sort((a, b) => compareCodeUnits(a.key, b.key))
    .map((entry) => entry.name);
}

// `%010d`: ten characters, ten digits or a minus sign and nine digits.
const SEQUENCE_SUFFIX = /(\d{10}|-\d{9})$/;

/**
 * The server's sequence suffix of a node name (`%010d`, possibly negative after wrapping past 2^31), used as
 * the fencing token of an acquisition. Undefined when the name has none.
 */
export function sequenceOf(name: string): number | undefined {
  const match = SEQUENCE_SUFFIX.exec(name);
  return match?.[1] === undefined ? undefined : Number.parseInt(match[1], 10);
}

/** The last 10 characters of a sequential name, as text (the 5.5+ downgrade read node reuses them). */
export function sequenceTextOf(name: string): string | undefined {
  const match = SEQUENCE_SUFFIX.exec(name);
  return match?.[1];
}
