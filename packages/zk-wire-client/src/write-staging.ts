/**
 * The buffer that coalesced request frames are copied into before one socket write.
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
 * One buffer serves every connection of the process, since a write is staged and written in one go.
 */

import { Buffer } from 'node:buffer';
import { copyBytes } from '@zkwire/jute-codec/internal';

/** Smallest staging buffer: most coalesced writes fit (1,000 getData requests are ~30 KiB). */
const MIN_STAGING_BYTES = 64 * 1024;
/** Largest staging buffer kept for reuse; a larger write is joined into a buffer of its own. */
const MAX_STAGING_BYTES = 1024 * 1024;

let staging: Buffer | undefined;

/**
 * The frames joined into the shared staging buffer (a view of `size` bytes), or into a new buffer when they do
 * not fit the largest one kept. Call {@link releaseStaged} right after writing it.
 */
export function stageFrames(frames: readonly Buffer[], size: number): Buffer {
  if (size > MAX_STAGING_BYTES) return Buffer.concat(frames, size);
  if (staging === undefined || staging.length < size) {
    staging = Buffer.allocUnsafeSlow(Math.min(MAX_STAGING_BYTES, Math.max(MIN_STAGING_BYTES, 2 * size)));
  }
  let offset = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    copyBytes.call(staging, frame, offset);
    offset += frame.length;
  }
  return staging.subarray(0, size);
}

/**
 * After writing a staged chunk: `taken` says whether the socket handed it all to the kernel. If not, the
 * socket still holds the buffer, and it is given up (the next write stages into a new one).
 */
export function releaseStaged(chunk: Buffer, taken: boolean): void {
  if (!taken && staging !== undefined && chunk.buffer === staging.buffer) staging = undefined;
}
