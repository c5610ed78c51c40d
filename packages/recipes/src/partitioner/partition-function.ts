/**
 * How a SetPartitioner splits its items among the members: kazoo's default (`SetPartitioner._partitioner`),
 * so a Node member and a kazoo member reading the same party compute the same split. Both lists are sorted
 * as Python sorts strings (by code point), the member takes every n-th item starting at its own place.
 */

/**
 * Returns the items that `identifier` owns, given every member's identifier (ours included) and all the
 * items. It must give every member the same answer for the same inputs, and each item to one member.
 */
export type PartitionFunction = (
  identifier: string,
  members: readonly string[],
  items: readonly string[],
) => readonly string[];

/** Orders strings by code point, as Python's `sorted` (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const x = (left[i] as string).codePointAt(0) as number;
    const y = (right[i] as string).codePointAt(0) as number;
    if (x !== y) return x - y;
  }
  return left.length - right.length;
}

/** kazoo's default partition function: `sorted(items)[members.index(identifier)::len(members)]`. */
export const kazooPartition: PartitionFunction = (identifier, members, items) => {
  const sortedItems = [...items].sort(compareCodePoints);
  const workers = [...members].sort(compareCodePoints);
  const index = workers.indexOf(identifier);
  if (index < 0) throw new Error(`member ${identifier} is not in the party`);
  return sortedItems.filter((_, i) => i >= index && (i - index) % workers.length === 0);
};
