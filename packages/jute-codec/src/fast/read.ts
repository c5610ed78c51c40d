// Bounds checks of the fast decoders, and the byte reads of every reply. The checks raise the same codes as
// the generic cursor, so the property tests can hold the two paths equal on malformed bytes as well as on
// good ones.
import { Buffer } from 'node:buffer';
import { JuteCodecError } from '../errors';

// Why not `buf.readInt32BE(offset)`: a method looked up on a Buffer goes through V8's generic property load
// (Buffer's prototype chain defeats the inline cache there, as with `copyBytes` in write.ts), in optimized
// code too, several times per reply (seen in profiles). These index the bytes instead.

/** The big-endian int32 at `offset` of `buf` (bounds already checked). */
export function int32At(buf: Uint8Array, offset: number): number {
  return (buf[offset]! << 24) | (buf[offset + 1]! << 16) | (buf[offset + 2]! << 8) | buf[offset + 3]!;
}

/** The big-endian uint32 at `offset` of `buf` (bounds already checked). */
export function uint32At(buf: Uint8Array, offset: number): number {
  return int32At(buf, offset) >>> 0;
}

/** Throws TRUNCATED unless `[offset, offset + n)` lies within `end`. */
export function need(offset: number, n: number, end: number, what: string): void {
  if (n > end - offset) {
    throw new JuteCodecError(
      'TRUNCATED',
      `truncated ${what}: needs ${n} bytes at offset ${offset}, ${end - offset} left`,
      { offset },
    );
  }
}

/** Reads a jute length at `offset` (-1 = null) with the generic path's checks; `unit` = min element size. */
export function readLength(buf: Buffer, offset: number, end: number, what: string, unit: number): number {
  need(offset, 4, end, `${what} length`);
  const n = int32At(buf, offset);
  if (n < -1) {
    throw new JuteCodecError('NEGATIVE_LENGTH', `${what} length ${n} at offset ${offset}`, { offset });
  }
  if (n > 0 && n * unit > end - offset - 4) {
    throw new JuteCodecError(
      'LENGTH_PAST_END',
      `${what} length ${n} at offset ${offset} exceeds the ${end - offset - 4} bytes left`,
      { offset },
    );
  }
  return n;
}

/** Checks the `(buf, offset, end)` arguments of a fast decoder. */
export function checkArgs(buf: Buffer, offset: number, end: number): void {
  if (!Buffer.isBuffer(buf) || !Number.isInteger(offset) || !Number.isInteger(end)) {
    throw new JuteCodecError('INVALID_VALUE', 'expected (Buffer, integer offset, integer end)');
  }
  if (offset < 0 || end < offset || end > buf.length) {
    throw new JuteCodecError(
      'INVALID_VALUE',
      `invalid range [${offset}, ${end}) of a ${buf.length}-byte buffer`,
    );
  }
}
