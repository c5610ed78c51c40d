/** Test helpers for the frame slab (fast/frame-alloc.ts). */
import { Buffer } from 'node:buffer';
import { allocFrame, releaseFrameBytes } from '../fast/frame-alloc';

/**
 * A frame of `size` bytes at the start of a slab: if the next frame would not be, everything cut from the
 * current slab so far is released at once (as a write of it all would), so that the slab starts again.
 */
export function frameAtSlabStart(size: number): Buffer {
  const frame = allocFrame(size);
  if (frame.byteOffset === 0) return frame;
  releaseFrameBytes(Buffer.from(frame.buffer, 0, frame.byteOffset + frame.length));
  return allocFrame(size);
}
