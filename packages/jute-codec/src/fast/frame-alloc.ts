// Where request frames get their bytes.
//
// Buffer.allocUnsafe serves small frames from Node's shared 8 KiB pool, which is the cheapest allocation
// there is for them. Frames of a kilobyte or more are another matter: the pool makes a new 8 KiB ArrayBuffer
// every few such frames (a multi of 10 setData of 100 bytes is 1,359 bytes, a new pool every sixth call),
// and it gives every frame over 4 KiB an ArrayBuffer of its own. Making an ArrayBuffer costs about as much
// as writing the whole frame, so large frames are cut from a slab of our own instead.
//
// Frames are cut back to back, so that the frames of one tick, written together, are one run of the slab:
// the client writes that run as it is instead of copying the frames into one buffer (write-staging.ts in
// the client). When such a write is every byte cut from the slab so far and the socket handed it all to the
// kernel, nothing refers to those bytes any more (each frame is written once, then let go), and the client
// gives the slab back with reclaimSlab: it is cut again from its start. (Before, a new 64 KiB slab every ~40
// multis cost ~125 ns per multi of 10 setData, its ArrayBuffer and the DataView over it, measured alone on an
// Intel Xeon.) Otherwise a full slab is dropped, and the frames cut from it keep it alive for as long as any
// of them is held. Nothing is ever written into a frame after it is encoded, so frames that share a slab
// cannot disturb each other.
import { Buffer } from 'node:buffer';

/** Frames of at least this many bytes come from the slab. */
const LARGE_FRAME_BYTES = 1024;
/**
 * Bytes per slab: room for the frames of one tick at depth (1,000 multis in flight answered ~60 at a time,
 * ~100 KB of frames), so that they lie in one run and the slab is reclaimed; with 64 KiB most such writes
 * spanned two slabs and were copied.
 */
const SLAB_BYTES = 256 * 1024;
/** Frames larger than this get a buffer of their own: a slab holds at least sixteen of the largest. */
const LARGEST_SLAB_FRAME = 16 * 1024;

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
  slabUsed = start + size;
  return (slab as Buffer).subarray(start, start + size);
}

/**
 * Called after a write that the socket handed to the kernel whole (it keeps no reference to the bytes): if
 * `written` is every byte cut from the current slab so far, the slab is cut again from its start. Any other
 * view (part of the slab, another buffer) changes nothing: a frame cut and not yet written lies outside it.
 */
export function reclaimSlab(written: Uint8Array): void {
  if (
    slab !== undefined &&
    written.buffer === slab.buffer &&
    written.byteOffset === slab.byteOffset &&
    written.length === slabUsed
  ) {
    slabUsed = 0;
  }
}
