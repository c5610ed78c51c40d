/**
 * Compact storage of cached nodes, so a large cache costs little memory: each node is a slot in a few typed
 * arrays (its Stat as numbers and 64-bit integers) plus its bytes in a shared arena, instead of a Stat object
 * with six bigints and a Buffer view per node (several hundred bytes each). `read` builds a plain
 * {@link ChildData} on demand; the bytes it returns are a view of the arena (do not modify them).
 *
 * The arena is append-only: a changed node's new bytes go at the end and its old ones become garbage. When
 * it is full, the live bytes are copied to the start of a new arena (views handed out earlier keep the old
 * one alive, unchanged): twice their size during the initial load, when the arena only grows, and a quarter
 * larger afterwards. So a loaded cache's arena never holds more than a quarter of garbage and room, however
 * many changes it takes, and each compaction is paid for by at least a quarter of its bytes appended since
 * the last one (at most four bytes copied per byte stored).
 */
import type { CacheStat, ChildData } from './cache-types.js';

const BIGS = 6; // czxid, mzxid, ctime, mtime, ephemeralOwner, pzxid
const INTS = 7; // version, cversion, aversion, dataLength, numChildren, data offset, stored length (-1: null)
const FREE = -2; // stored length of a free slot
const RESERVED = -3; // stored length of a slot held for a node not read yet (a parent of a cached node)
const MIN_ARENA = 64 * 1024;

/** Slots of node records and an arena for their bytes. */
export class NodeStore {
  private bigs = new BigInt64Array(BIGS * 64);
  private ints = new Int32Array(INTS * 64);
  private capacity = 64;
  private nextSlot = 0;
  private readonly freeSlots: number[] = [];
  private arena = new Uint8Array(0);
  private arenaUsed = 0;
  private liveBytes = 0;
  /** {@link trim} was called: the initial load is over. */
  private loaded = false;

  /** Stores a node in a new slot; returns the slot. */
  add(stat: CacheStat, data: Uint8Array | null): number {
    const slot = this.freeSlots.pop() ?? this.newSlot();
    this.write(slot, stat, data);
    return slot;
  }

  /** A slot for a node known only as the parent of cached nodes; {@link replace} fills it. */
  reserve(): number {
    const slot = this.freeSlots.pop() ?? this.newSlot();
    this.ints[slot * INTS + 6] = RESERVED;
    return slot;
  }

  /** True for a slot from {@link reserve} not filled yet. */
  isReserved(slot: number): boolean {
    return this.ints[slot * INTS + 6] === RESERVED;
  }

  /** Replaces what a slot holds. */
  replace(slot: number, stat: CacheStat, data: Uint8Array | null): void {
    this.releaseBytes(slot);
    this.write(slot, stat, data);
  }

  /** Frees a slot (its bytes become garbage). */
  free(slot: number): void {
    this.releaseBytes(slot);
    this.ints[slot * INTS + 6] = FREE;
    this.freeSlots.push(slot);
  }

  /** The node in `slot` as a plain ChildData (a new object each call). */
  read(slot: number, path: string): ChildData {
    const b = slot * BIGS;
    const i = slot * INTS;
    const bigs = this.bigs;
    const ints = this.ints;
    const stored = ints[i + 6] as number;
    const offset = ints[i + 5] as number;
    return {
      path,
      stat: {
        czxid: bigs[b] as bigint,
        mzxid: bigs[b + 1] as bigint,
        ctime: bigs[b + 2] as bigint,
        mtime: bigs[b + 3] as bigint,
        version: ints[i] as number,
        cversion: ints[i + 1] as number,
        aversion: ints[i + 2] as number,
        ephemeralOwner: bigs[b + 4] as bigint,
        dataLength: ints[i + 3] as number,
        numChildren: ints[i + 4] as number,
        pzxid: bigs[b + 5] as bigint,
      },
      data: stored < 0 ? null : this.arena.subarray(offset, offset + stored),
    };
  }

  /**
   * Gives back the room kept for growth: called once the initial load is done, since a large cache is mostly
   * read afterwards and growth doubles its arrays on the way. An eighth is kept for new slots (a create
   * after the load would otherwise double them); the arena keeps none, since its next compaction adds the
   * quarter that any later change needs anyway.
   */
  trim(): void {
    const slots = Math.max(64, this.nextSlot + (this.nextSlot >> 3));
    if (slots < this.capacity) this.resizeSlots(slots);
    this.compactInto(Math.max(1024, this.liveBytes));
    this.loaded = true;
  }

  /** Empties the store. */
  clear(): void {
    this.bigs = new BigInt64Array(BIGS * 64);
    this.ints = new Int32Array(INTS * 64);
    this.capacity = 64;
    this.nextSlot = 0;
    this.freeSlots.length = 0;
    this.arena = new Uint8Array(0);
    this.arenaUsed = 0;
    this.liveBytes = 0;
    this.loaded = false;
  }

  private newSlot(): number {
    if (this.nextSlot === this.capacity) this.resizeSlots(this.capacity * 2);
    return this.nextSlot++;
  }

  private resizeSlots(capacity: number): void {
    const used = this.nextSlot;
    const bigs = new BigInt64Array(BIGS * capacity);
    bigs.set(this.bigs.subarray(0, BIGS * used));
    this.bigs = bigs;
    const ints = new Int32Array(INTS * capacity);
    ints.set(this.ints.subarray(0, INTS * used));
    this.ints = ints;
    this.capacity = capacity;
  }

  private write(slot: number, stat: CacheStat, data: Uint8Array | null): void {
    const b = slot * BIGS;
    const i = slot * INTS;
    const bigs = this.bigs;
    const ints = this.ints;
    bigs[b] = stat.czxid;
    bigs[b + 1] = stat.mzxid;
    bigs[b + 2] = stat.ctime;
    bigs[b + 3] = stat.mtime;
    bigs[b + 4] = stat.ephemeralOwner;
    bigs[b + 5] = stat.pzxid;
    ints[i] = stat.version;
    ints[i + 1] = stat.cversion;
    ints[i + 2] = stat.aversion;
    ints[i + 3] = stat.dataLength;
    ints[i + 4] = stat.numChildren;
    if (data === null) {
      ints[i + 5] = 0;
      ints[i + 6] = -1;
      return;
    }
    ints[i + 5] = this.append(data);
    ints[i + 6] = data.length;
    this.liveBytes += data.length;
  }

  private releaseBytes(slot: number): void {
    const stored = this.ints[slot * INTS + 6] as number;
    if (stored > 0) this.liveBytes -= stored;
  }

  /** Copies `data` to the end of the arena (making room first); returns its offset. */
  private append(data: Uint8Array): number {
    if (this.arenaUsed + data.length > this.arena.length) this.makeRoom(data.length);
    const offset = this.arenaUsed;
    this.arena.set(data, offset);
    this.arenaUsed += data.length;
    return offset;
  }

  /** A new arena: live bytes compacted to its start, with room for `more` bytes and some on top. */
  private makeRoom(more: number): void {
    const needed = this.liveBytes + more;
    this.compactInto(Math.max(MIN_ARENA, needed + (this.loaded ? needed >> 2 : needed)));
  }

  /** Copies the live bytes to the start of a new arena of `size` bytes. */
  private compactInto(size: number): void {
    const arena = new Uint8Array(size);
    let used = 0;
    const ints = this.ints;
    for (let slot = 0; slot < this.nextSlot; slot++) {
      const i = slot * INTS;
      const stored = ints[i + 6] as number;
      if (stored <= 0) continue;
      const offset = ints[i + 5] as number;
      arena.set(this.arena.subarray(offset, offset + stored), used);
      ints[i + 5] = used;
      used += stored;
    }
    this.arena = arena;
    this.arenaUsed = used;
  }
}
