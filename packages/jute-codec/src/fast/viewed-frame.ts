// A request frame written through one DataView of its ArrayBuffer, for encoders that write many ints (a
// multi writes several per op). putInt32's four byte stores cost several times a DataView's setInt32 there;
// taking the view costs two getter calls, so it pays once a frame has more than a few ints. The short path
// copies below save a little more of a multi's encoding.
//
// The view is kept for the next frame of the same ArrayBuffer (frames are cut one after another from
// frame-alloc.ts's slab, reused write after write) in a cache apart from decoders.ts's, which holds the view
// of the last reply's read buffer: sharing one, encoding and decoding would replace each other's view at
// every call.
import type { Buffer } from 'node:buffer';
import { byteOffsetOf, ViewCache } from './array-buffer-views';
import { copyBytes } from './write';

/** The view of the last frame's ArrayBuffer, apart from the decoders' (array-buffer-views.ts). */
const frameViews = new ViewCache();

/** Byte copies up to this length are made in JavaScript: a call into Uint8Array#set costs more for them. */
const SHORT_COPY = 16;

/**
 * A frame being encoded: every write takes an offset into `bytes` (not into the ArrayBuffer) and returns the
 * offset after what it wrote. Values are checked before they get here, as for putInt32, and the frame is
 * sized exactly before it is written: the view spans the whole ArrayBuffer, so an int written past the
 * frame's end would land in the pool's or slab's bytes after it (not yet handed out) rather than throw. An
 * encoder checks that its last offset is the frame's end (as encodeMulti does).
 */
export class ViewedFrame {
  private readonly view: DataView<ArrayBufferLike>;
  private readonly base: number;

  constructor(readonly bytes: Buffer) {
    this.view = frameViews.viewOf(bytes);
    this.base = byteOffsetOf(bytes);
  }

  /** A big-endian int32. */
  int32(offset: number, value: number): number {
    this.view.setInt32(this.base + offset, value);
    return offset + 4;
  }

  /** One byte (a boolean). */
  byte(offset: number, value: number): number {
    this.bytes[offset] = value;
    return offset + 1;
  }

  /** A copy of `source`. */
  copy(offset: number, source: Uint8Array): number {
    const length = source.length;
    if (length > SHORT_COPY) {
      copyBytes.call(this.bytes, source, offset);
    } else {
      const bytes = this.bytes;
      for (let i = 0; i < length; i++) bytes[offset + i] = source[i]!;
    }
    return offset + length;
  }
}
