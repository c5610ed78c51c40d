// Where request frames get their bytes.
//
// Buffer.allocUnsafe serves small frames from Node's shared 8 KiB pool, which is the cheapest allocation
// there is for them. Frames of a kilobyte or more are another matter: the pool makes a new 8 KiB ArrayBuffer
// every few such frames (a multi of 10 setData of 100 bytes is 1,359 bytes, a new pool every sixth call),
// and it gives every frame over 4 KiB an ArrayBuffer of its own. Making an ArrayBuffer costs about as much
// as writing the whole frame, so large frames are cut from a 64 KiB slab of our own instead.
//
// A slab is never reused: it is cut from start to end, then dropped, and the frames cut from it keep it
// alive for as long as any of them is held (a frame is let go once it is written). Nothing is ever written
// into a frame after it is encoded, so frames that share a slab cannot disturb each other.
import { Buffer } from 'node:buffer';

/** Frames of at least this many bytes come from the slab. */
const LARGE_FRAME_BYTES = 1024;
/** Bytes per slab. */
const SLAB_BYTES = 64 * 1024;
/** Frames larger than this get a buffer of their own: a slab holds at least four of the largest. */
const LARGEST_SLAB_FRAME = SLAB_BYTES / 4;

let slab: Buffer | undefined;
let slabUsed = SLAB_BYTES;

/** A buffer of `size` bytes for a request frame, its contents unset (every byte is written by the encoder). */
export function allocFrame(size: number): Buffer {
  if (size < LARGE_FRAME_BYTES || size > LARGEST_SLAB_FRAME) return Buffer.allocUnsafe(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const start = slabUsed;
  // Each frame starts on an 8-byte boundary, as the pool's do.
  slabUsed = (start + size + 7) & ~7;
  return (slab as Buffer).subarray(start, start + size);
}
