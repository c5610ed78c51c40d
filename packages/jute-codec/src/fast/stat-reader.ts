// Reading a Stat (68 bytes: six longs, five ints) without making a heap BigInt per long.
//
// A BigInt is a value (which copy a caller gets is not observable), and the same longs come again and again,
// so each long read is first looked up among recent ones by its two 32-bit halves. Two kinds of table:
//
// - A node's own longs, czxid, ctime and ephemeralOwner, never change for the life of that node: they are
//   kept together, one entry per node, found by czxid's low bits. A node read again (a getData loop, a multi
//   or a cache going over the same nodes call after call) costs one lookup for the three instead of three.
//   A node with another czxid in that entry (64 apart) takes the entry over.
// - mzxid, mtime and pzxid change with writes, and repeat across nodes instead: every Stat of one multi has
//   the multi's mzxid and mtime. Each has a small table of recent values indexed by the low bits of the low
//   half, so that the Stats of one multi share their BigInts instead of making two per Stat.
import type { Stat } from '../records/data';

/** Entries per table: node entries, and recent values per changing field. */
const SLOTS = 64;

// Node entries: halves of czxid, ctime, ephemeralOwner (6 per entry) and their BigInts (3 per entry). Every
// entry starts as zeros and 0n: consistent, so an all-zero Stat is read right from the start.
const nodeHalves = new Int32Array(6 * SLOTS);
const nodeLongs: bigint[] = new Array<bigint>(3 * SLOTS).fill(0n);

// Changing fields: mzxid (0), mtime (1), pzxid (2). (0, 0) maps to slot 0 of its field only, so no other slot
// can match the 0n it starts with.
const MZXID = 0;
const MTIME = 1;
const PZXID = 2;
const cachedHigh = new Int32Array(3 * SLOTS);
const cachedLow = new Int32Array(3 * SLOTS);
const cachedLong: bigint[] = new Array<bigint>(3 * SLOTS).fill(0n);

/** Reads a Stat at `offset` of `view` (bounds already checked; an offset in the view's whole ArrayBuffer). */
export function readStat(view: DataView, offset: number): Stat {
  const node = nodeEntry(view, offset);
  return {
    czxid: nodeLongs[node]!,
    mzxid: readChangingLong(view, offset + 8, MZXID),
    ctime: nodeLongs[node + 1]!,
    mtime: readChangingLong(view, offset + 24, MTIME),
    version: view.getInt32(offset + 32),
    cversion: view.getInt32(offset + 36),
    aversion: view.getInt32(offset + 40),
    ephemeralOwner: nodeLongs[node + 2]!,
    dataLength: view.getInt32(offset + 52),
    numChildren: view.getInt32(offset + 56),
    pzxid: readChangingLong(view, offset + 60, PZXID),
  };
}

/** The index in `nodeLongs` of the entry that holds this Stat's czxid, ctime and ephemeralOwner. */
function nodeEntry(view: DataView, offset: number): number {
  const czxidHigh = view.getInt32(offset);
  const czxidLow = view.getInt32(offset + 4);
  const ctimeHigh = view.getInt32(offset + 16);
  const ctimeLow = view.getInt32(offset + 20);
  const ownerHigh = view.getInt32(offset + 44);
  const ownerLow = view.getInt32(offset + 48);
  const slot = czxidLow & (SLOTS - 1);
  const h = 6 * slot;
  const entry = 3 * slot;
  if (
    nodeHalves[h] !== czxidHigh ||
    nodeHalves[h + 1] !== czxidLow ||
    nodeHalves[h + 2] !== ctimeHigh ||
    nodeHalves[h + 3] !== ctimeLow ||
    nodeHalves[h + 4] !== ownerHigh ||
    nodeHalves[h + 5] !== ownerLow
  ) {
    nodeHalves[h] = czxidHigh;
    nodeHalves[h + 1] = czxidLow;
    nodeHalves[h + 2] = ctimeHigh;
    nodeHalves[h + 3] = ctimeLow;
    nodeHalves[h + 4] = ownerHigh;
    nodeHalves[h + 5] = ownerLow;
    nodeLongs[entry] = view.getBigInt64(offset);
    nodeLongs[entry + 1] = view.getBigInt64(offset + 16);
    nodeLongs[entry + 2] = view.getBigInt64(offset + 44);
  }
  return entry;
}

function readChangingLong(view: DataView, offset: number, field: number): bigint {
  const high = view.getInt32(offset);
  const low = view.getInt32(offset + 4);
  const slot = field * SLOTS + (low & (SLOTS - 1));
  if (high === cachedHigh[slot] && low === cachedLow[slot]) return cachedLong[slot]!;
  const value = view.getBigInt64(offset);
  cachedHigh[slot] = high;
  cachedLow[slot] = low;
  cachedLong[slot] = value;
  return value;
}
