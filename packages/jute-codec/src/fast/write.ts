// Writes of the fast encoders. Values are checked before they get here (checkInt32, the string's byte
// length), so these skip Buffer#writeInt32BE's range and bounds checks and, for short ASCII strings (paths,
// ACL schemes), the two calls into C++ that Buffer.byteLength and Buffer#write make: at one request in
// flight those were a few tenths of a microsecond of every request.
import { Buffer } from 'node:buffer';

/** Strings up to this length are measured and written in JavaScript; longer ones by Buffer's own code. */
const SHORT_STRING = 64;

/**
 * Uint8Array#set, taken once: `target.set(bytes, offset)` on a Buffer looks `set` up through V8's generic
 * property load at every call (Buffer's prototype chain defeats the inline cache there), a cost of the order
 * of the copy itself. Call it as `copyBytes.call(target, bytes, offset)`.
 */
export const copyBytes: (this: Uint8Array, source: ArrayLike<number>, offset?: number) => void =
  Uint8Array.prototype.set;

/** Writes a big-endian int32 (already checked to be one) at `offset`; returns the offset after it. */
export function putInt32(buf: Buffer, value: number, offset: number): number {
  buf[offset] = value >>> 24;
  buf[offset + 1] = value >>> 16;
  buf[offset + 2] = value >>> 8;
  buf[offset + 3] = value;
  return offset + 4;
}

/** The UTF-8 byte length of `value` (its length when it is ASCII: then {@link putString} copies it itself). */
export function utf8Length(value: string): number {
  const n = value.length;
  if (n > SHORT_STRING) return Buffer.byteLength(value, 'utf8');
  for (let i = 0; i < n; i++) {
    if (value.charCodeAt(i) > 0x7f) return Buffer.byteLength(value, 'utf8');
  }
  return n;
}

/** Writes a jute string (int length, then the bytes) whose UTF-8 length is `byteLength`. */
export function putString(buf: Buffer, value: string, byteLength: number, offset: number): number {
  const start = putInt32(buf, byteLength, offset);
  // Equal lengths mean ASCII: a UTF-8 encoding is longer than the string as soon as one character is not.
  if (byteLength === value.length && byteLength <= SHORT_STRING) {
    for (let i = 0; i < byteLength; i++) buf[start + i] = value.charCodeAt(i);
  } else {
    buf.write(value, start, byteLength, 'utf8');
  }
  return start + byteLength;
}
