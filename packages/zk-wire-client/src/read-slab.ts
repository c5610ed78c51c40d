/**
 * Where a socket of our own reads into (its `onread` buffer): consecutive regions of a slab, each region
 * handed out for one read and never written again, so the bytes a read brings stay valid for as long as
 * someone holds a view of them (frames, and values decoded from them) without being copied out.
 *
 * Before, every read went into one reusable 64 KiB buffer and was copied out at its exact length: one
 * copy of every byte received, and a fresh ArrayBuffer per read over 4 KiB (about 5% of the client CPU of
 * a getChildren of 1,000 names, apps/bench). A slab serves several reads; a new one is taken when the rest
 * of the current one is too small for a useful read. A region as large as the old buffer is offered
 * whenever the slab has that much left, so reads are as large as before.
 */

/** Bytes of one slab: two full-size reads, or more smaller ones. */
export const SLAB_BYTES = 128 * 1024;
/** The largest region offered to one read (Node's own read size). */
export const MAX_READ_BYTES = 64 * 1024;
/** A slab with less than this left is set aside for a new one. */
export const MIN_READ_BYTES = 16 * 1024;

/** The read regions of one socket. */
export class ReadSlab {
  private slab: Buffer | undefined;
  /** Bytes of the current slab already read into (handed out). */
  private used = 0;

  /** The region the next read goes into (given to the socket before each read). */
  region(): Buffer {
    let slab = this.slab;
    if (slab === undefined || slab.length - this.used < MIN_READ_BYTES) {
      slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.slab = slab;
      this.used = 0;
    }
    return slab.subarray(this.used, Math.min(slab.length, this.used + MAX_READ_BYTES));
  }

  /** Marks the first `bytes` of `region` (the last one offered) as read and returns them. */
  take(region: Uint8Array, bytes: number): Buffer {
    this.used += bytes;
    return Buffer.from(region.buffer, region.byteOffset, bytes);
  }
}
