/**
 * What a client does when its server list changes (the ensemble was reconfigured, or the user called
 * `updateServerList`): the probabilistic rebalancing of ZooKeeper's `StaticHostProvider.updateServerList`
 * (ZOOKEEPER-1355), so that the expected number of clients per server ends up equal while as few clients as
 * possible move.
 *
 * With S servers before and N after, of which `kept` were already in the old list and `added` are new:
 * - The list grows (N > S) and my server stays: I move with probability 1 - S/N, to one of the added
 *   servers (each old server keeps S/N of its clients, the added ones take the rest).
 * - The list grows and my server is gone: I move to an added server.
 * - The list shrinks or keeps its size (N <= S) and my server stays: I stay (its load may only grow).
 * - It shrinks or keeps its size and my server is gone: I move, to a kept server with probability
 *   kept·(S - N) / (N·(S - kept)), else to an added one, so that kept and added servers end up even.
 *
 * A client that moves tries servers in an order drawn the same way (added or kept by the probability above,
 * each group in shuffled order, the other group once one is used up), then goes round the list as usual.
 */
import { shuffled } from '../util/shuffle.js';
import type { HostAddress } from '../util/types.js';

/** The outcome of a host-list change for one client. */
export interface HostListUpdate {
  /** The new list, in the order connection attempts go through it (a move starts at `hosts[0]`). */
  readonly hosts: HostAddress[];
  /** True when the client should leave its server now (close the connection and reconnect). */
  readonly move: boolean;
}

const sameAddress = (a: HostAddress, b: HostAddress) => a.host === b.host && a.port === b.port;
const includes = (list: readonly HostAddress[], address: HostAddress) =>
  list.some((entry) => sameAddress(entry, address));

/** Drops repeated addresses, keeping the first of each. */
export function distinctAddresses(list: readonly HostAddress[]): HostAddress[] {
  const out: HostAddress[] = [];
  for (const address of list) if (!includes(out, address)) out.push(address);
  return out;
}

/**
 * The probability that a client on server `current` moves to one of the added servers (`toAdded`) and to one
 * of the kept servers (`toKept`); their sum is the probability that it moves at all.
 */
export function moveProbabilities(
  previous: readonly HostAddress[],
  next: readonly HostAddress[],
  current: HostAddress,
): { toAdded: number; toKept: number } {
  const before = distinctAddresses(previous).length;
  const after = distinctAddresses(next);
  const kept = after.filter((address) => includes(previous, address)).length;
  const added = after.length - kept;
  const myServerStays = includes(after, current);
  if (after.length > before) {
    return myServerStays ? { toAdded: 1 - before / after.length, toKept: 0 } : { toAdded: 1, toKept: 0 };
  }
  if (myServerStays) return { toAdded: 0, toKept: 0 };
  // Nothing added: every move goes to a kept server (Java's formula is 0/0 there).
  if (added === 0) return { toAdded: 0, toKept: 1 };
  const toKept = (kept * (before - after.length)) / (after.length * (before - kept));
  return { toAdded: 1 - toKept, toKept };
}

/**
 * Plans the change from `previous` to `next` for a client whose connection is (or was last) on `current`
 * (undefined: before any connection attempt, taken as the first of `previous`, as Java does). `random`
 * returns a number in [0, 1): tests pass a seeded one.
 */
export function planHostListUpdate(
  previous: readonly HostAddress[],
  next: readonly HostAddress[],
  current: HostAddress | undefined,
  random: () => number = Math.random,
): HostListUpdate {
  const list = shuffled(distinctAddresses(next), random);
  if (list.length === 0) throw new RangeError('planHostListUpdate: the new host list is empty');
  const myServer = current ?? previous[0];
  if (myServer === undefined) return { hosts: list, move: false };
  const { toAdded, toKept } = moveProbabilities(previous, list, myServer);
  const movesAtAll = toAdded + toKept;
  // A certain move (or stay) draws no number, so the draws below depend only on the uncertain cases.
  const move = movesAtAll >= 1 || (movesAtAll > 0 && random() < movesAtAll);
  if (!move) return { hosts: list, move: false };
  const added = list.filter((address) => !includes(previous, address));
  const kept = list.filter((address) => includes(previous, address));
  // Given that it moves, an attempt goes to an added server with probability toAdded / (toAdded + toKept).
  const takeAdded = toAdded / movesAtAll;
  const order: HostAddress[] = [];
  while (added.length > 0 || kept.length > 0) {
    const fromAdded = added.length > 0 && (kept.length === 0 || random() < takeAdded);
    order.push((fromAdded ? added : kept).shift() as HostAddress);
  }
  return { hosts: order, move: true };
}
