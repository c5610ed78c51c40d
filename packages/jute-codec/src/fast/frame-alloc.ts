// Where request frames get their bytes: cut back to back from a slab of our own, reused.
//
// Frames are cut back to back, so that the frames of one tick, written together, are one run of the slab:
// the client writes that run as it is instead of copying the frames into one buffer
// (transport/write-staging.ts in the client). The client tells the slab when a frame's bytes are done with
// (releaseFrameBytes): written to a socket that handed them all to the kernel, or copied into a buffer of its
// own. Bytes are done with in the order they were cut, as requests go out in call order; once every byte cut
// from the slab is, nothing refers to them any more (each frame is written once, then let go), and the slab
// is cut again from its start. Bytes released out of order (a request held back, a socket that kept a write)
// stop that: the slab is then cut to its end and dropped, and the frames cut from it keep it alive for as
// long as any of them is held. Nothing is ever written into a frame after it is encoded, so frames that share
// a slab cannot disturb each other.
//
// Before, small frames came from Node's shared 8 KiB pool (Buffer.allocUnsafe) and frames of a kilobyte or
// more from a 64 KiB slab that was never reused. Making an ArrayBuffer costs about as much as writing a whole
// frame, and the pool and the old slab made new ones every few dozen frames (with a DataView over each); and
// frames from the pool, each on an 8-byte boundary, were copied into one buffer for each write.
import { Buffer } from 'node:buffer';

/**
 * Bytes per slab: room for the frames of one tick at depth (1,000 multis in flight answered ~60 at a time,
 * ~100 KB of frames), so that they lie in one run and the slab is reclaimed.
 */
const SLAB_BYTES = 256 * 1024;
/** Frames larger than this get a buffer of their own: a slab holds at least sixteen of the largest. */
const LARGEST_SLAB_FRAME = 16 * 1024;

/** A slab of request frames: where they are cut, and what of it is done with. */
export class FrameSlab {
  private slab: ArrayBuffer | undefined;
  /** Bytes cut from the slab. */
  private used = 0;
  /** Bytes from the slab's start that are done with (see {@link release}). */
  private released = 0;

  /** A buffer of `size` bytes for a request frame, its contents unset (the encoder writes every byte). */
  alloc(size: number): Buffer {
    if (size > LARGEST_SLAB_FRAME) return Buffer.allocUnsafe(size);
    if (this.slab === undefined || this.used + size > SLAB_BYTES) {
      this.slab = new ArrayBuffer(SLAB_BYTES);
      this.used = this.released = 0;
    }
    const start = this.used;
    this.used = start + size;
    // A Buffer over the ArrayBuffer costs less than a subarray of a Buffer.
    return Buffer.from(this.slab, start, size);
  }

  /**
   * Tells the slab that `bytes` (a frame, or a run of frames cut one after another) are done with: written
   * to a socket that handed them all to the kernel, or copied. Counted only when they start where the bytes
   * done with so far end; once every byte cut from the slab is done with, the slab is cut again from its
   * start. Any other view (out of order, another buffer) changes nothing.
   */
  release(bytes: Uint8Array): void {
    if (bytes.buffer !== this.slab || bytes.byteOffset !== this.released) return;
    this.released += bytes.length;
    if (this.released === this.used) this.used = this.released = 0;
  }
}

/**
 * The slab every encoder of the process cuts request frames from: the frames of one tick, from any client,
 * go out in call order, so one slab serves them all and is reclaimed as they are written.
 */
export const sharedFrameSlab = new FrameSlab();

/** A request frame's buffer from {@link sharedFrameSlab}. */
export function allocFrame(size: number): Buffer {
  return sharedFrameSlab.alloc(size);
}

/** {@link FrameSlab.release} on {@link sharedFrameSlab}. */
export function releaseFrameBytes(bytes: Uint8Array): void {
  sharedFrameSlab.release(bytes);
}
