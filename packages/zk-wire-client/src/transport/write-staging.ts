/**
 * One chunk for one socket write out of the request frames of a tick: a view over them where they lie back
 * to back in one buffer, else a copy in the shared staging buffer.
 *
 * Request frames are cut back to back from the codec's slab (frame-alloc.ts), so the frames of a tick are
 * usually one run of it: written as they lie, with no copy. The slab is told
 * when their bytes are done with (releaseFrameBytes): once copied here, or once the socket handed the run to
 * the kernel whole. When every byte it gave out is, it is cut again from its start.
 *
 * Why one reusable buffer: requests made in the same tick go out in one write, and joining their frames with
 * Buffer.concat allocated a new buffer outside the JavaScript heap for every write of more than 4 KiB (at 1,000
 * requests in flight, every write). Those allocations, thousands a second, made V8 collect more often: the
 * same cost that reading into one reusable buffer removed on the read side (connection.ts).
 *
 * When is the buffer free again: a plain TCP socket hands a write to the kernel at once when the kernel takes
 * it all, and then keeps no reference to the bytes (its `writableLength` is back to 0 when `write` returns).
 * Otherwise the socket holds the buffer until the write completes; it is then left to the socket, and the
 * next write gets a new one. Only sockets we open ourselves are known to behave so (a TLS or a
 * `connectionFactory` socket may keep the bytes it was given): the connection decides whether to stage.
 * One staging buffer can serve many connections, since a write is staged and written in one go: the
 * connections of a process share one (connection-buffers.ts).
 */

import { Buffer } from 'node:buffer';
import { copyBytes, type FrameSlab } from '@zkwire/jute-codec/internal';

/**
 * The staging buffer's size. Writes at depth fit (a write carries the requests one read's replies woke, a
 * few dozen KiB at 1,000 in flight); a larger one (a burst of thousands of calls in one tick) is joined into
 * a buffer of its own, so that a burst does not leave a larger buffer held for the life of the process.
 */
const STAGING_BYTES = 64 * 1024;

/**
 * A staging buffer, reused from one write to the next while the socket lets go of it, and the slab the
 * frames it is given were cut from (told when their bytes are done with).
 */
export class WriteStaging {
  private staging: Buffer | undefined;

  constructor(private readonly slab: FrameSlab) {}

  /**
   * The frames (`size` bytes in all) as one chunk: a view over them when they lie back to back in one
   * buffer, else joined into the staging buffer, or into a new buffer when they do not fit it. Call
   * {@link release} right after writing it.
   */
  stage(frames: readonly Buffer[], size: number): Buffer {
    const run = backToBack(frames, size);
    if (run !== undefined) return run;
    if (size > STAGING_BYTES) return this.join(frames, size);
    let staging = this.staging;
    if (staging === undefined) {
      staging = Buffer.allocUnsafeSlow(STAGING_BYTES);
      this.staging = staging;
    }
    let offset = 0;
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      copyBytes.call(staging, frame, offset);
      offset += frame.length;
      this.slab.release(frame);
    }
    return staging.subarray(0, size);
  }

  /**
   * After any write to a plain socket of our own (a staged chunk, a run of frames, a lone frame): `taken`
   * says whether the socket handed it all to the kernel. If so, frames written as they lie are done with. If
   * not, the socket still holds the bytes: the staging buffer is given up (the next write stages into a new
   * one), and the frames' bytes stay taken.
   */
  release(chunk: Buffer, taken: boolean): void {
    if (taken) this.slab.release(chunk);
    else if (this.staging !== undefined && chunk.buffer === this.staging.buffer) this.staging = undefined;
  }

  /** The frames copied into a new buffer; their bytes are done with. */
  join(frames: readonly Buffer[], size: number): Buffer {
    const chunk = Buffer.concat(frames, size);
    for (let i = 0; i < frames.length; i++) this.slab.release(frames[i]!);
    return chunk;
  }
}

/** One view over `frames` if each starts where the one before ends, in the same buffer. */
function backToBack(frames: readonly Buffer[], size: number): Buffer | undefined {
  const first = frames[0]!;
  const buffer = first.buffer;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < frames.length; i++) {
    const frame = frames[i]!;
    if (frame.byteOffset !== end || frame.buffer !== buffer) return undefined;
    end += frame.length;
  }
  return Buffer.from(buffer, first.byteOffset, size);
}
