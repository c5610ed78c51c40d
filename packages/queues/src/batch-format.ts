/**
 * Curator's batch byte format (`ItemSerializer`, curator/queues.md §8.2): every queue node holds one batch.
 *
 *   int32 0x00010001                     version
 *   ( byte 0x01, int32 length, bytes )*  one per item, big-endian length >= 0
 *   byte 0x02                            end of batch; anything after it is ignored, as Curator does
 */
import { CorruptQueueItemError, QueueErrorCode } from './errors.js';

/** The only batch version Curator writes and accepts. */
export const BATCH_VERSION = 0x00010001;
const ITEM_OPCODE = 0x01;
const EOF_OPCODE = 0x02;

/** Encodes item byte strings as one batch, in one allocation. An empty list gives a valid, empty batch. */
export function encodeBatch(items: readonly Uint8Array[]): Buffer {
  let size = 4 + 1;
  for (const item of items) size += 5 + item.byteLength;
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(BATCH_VERSION, 0);
  let offset = 4;
  for (const item of items) {
    out[offset] = ITEM_OPCODE;
    out.writeInt32BE(item.byteLength, offset + 1);
    out.set(item, offset + 5);
    offset += 5 + item.byteLength;
  }
  out[offset] = EOF_OPCODE;
  return out;
}

function corrupt(reason: string, path: string | undefined): CorruptQueueItemError {
  const where = path === undefined ? '' : ` at ${path}`;
  return new CorruptQueueItemError(QueueErrorCode.CORRUPT_ITEM, `corrupt queue batch${where}: ${reason}`, {
    ...(path === undefined ? {} : { path }),
  });
}

/**
 * Decodes a batch into its items' bytes (views into `bytes`, no copy). Throws {@link CorruptQueueItemError}
 * (code `CORRUPT_ITEM`, naming `path`) for a wrong version, an unknown opcode, a negative length, or bytes
 * that end before the end-of-batch opcode; never reads past `bytes`.
 */
export function decodeBatch(bytes: Uint8Array, path?: string): Buffer[] {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 4) throw corrupt(`${buf.length} bytes, too short for the version`, path);
  const version = buf.readInt32BE(0);
  if (version !== BATCH_VERSION) {
    throw corrupt(`version 0x${(version >>> 0).toString(16).padStart(8, '0')}, expected 0x00010001`, path);
  }
  const items: Buffer[] = [];
  let offset = 4;
  for (;;) {
    if (offset >= buf.length) throw corrupt(`truncated at byte ${offset}: no end-of-batch opcode`, path);
    const opcode = buf[offset];
    if (opcode === EOF_OPCODE) return items;
    if (opcode !== ITEM_OPCODE)
      throw corrupt(`unknown opcode 0x${opcode?.toString(16)} at byte ${offset}`, path);
    if (offset + 5 > buf.length) throw corrupt(`truncated item length at byte ${offset + 1}`, path);
    const length = buf.readInt32BE(offset + 1);
    if (length < 0) throw corrupt(`negative item length ${length} at byte ${offset + 1}`, path);
    const start = offset + 5;
    if (start + length > buf.length) {
      throw corrupt(`item of ${length} bytes at byte ${start} runs past the end (${buf.length} bytes)`, path);
    }
    items.push(buf.subarray(start, start + length));
    offset = start + length;
  }
}
