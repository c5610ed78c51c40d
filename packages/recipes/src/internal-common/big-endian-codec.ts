/**
 * The byte layouts of Curator's counters (curator/counters.md §12.2, §12.3): SharedCount and
 * DistributedAtomicInteger hold a 4-byte big-endian int32, DistributedAtomicLong an 8-byte big-endian int64.
 */
import { BadRecipeDataError, InvalidRecipeArgumentError } from './recipe-errors.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Refuses anything but a safe integer within int32. */
export function checkInt32(value: unknown, what = 'value'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
    throw new InvalidRecipeArgumentError(what, `must be an int32, got ${String(value)}`);
  }
  return value;
}

/** Refuses anything but a bigint within int64 (numbers that are safe integers are accepted and converted). */
export function checkInt64(value: unknown, what = 'value'): bigint {
  const big = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof big !== 'bigint' || big < INT64_MIN || big > INT64_MAX) {
    throw new InvalidRecipeArgumentError(what, `must be an int64 (bigint), got ${String(value)}`);
  }
  return big;
}

/** 4 bytes, big-endian two's complement. */
export function encodeInt32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, checkInt32(value));
  return bytes;
}

/**
 * Reads the first 4 bytes as a big-endian int32, as Java's `ByteBuffer.getInt()` does; fewer than 4 bytes is
 * the BufferUnderflowException of Curator, here a typed BAD_DATA error.
 */
export function decodeInt32(bytes: Uint8Array, path?: string): number {
  if (bytes.length < 4) {
    throw new BadRecipeDataError(`expected 4 bytes (int32) at ${path ?? 'node'}, found ${bytes.length}`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0);
}

/** 8 bytes, big-endian two's complement. */
export function encodeInt64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, checkInt64(value));
  return bytes;
}

/** Reads the first 8 bytes as a big-endian int64; 1 to 7 bytes is a typed BAD_DATA error. */
export function decodeInt64(bytes: Uint8Array, path?: string): bigint {
  if (bytes.length < 8) {
    throw new BadRecipeDataError(`expected 8 bytes (int64) at ${path ?? 'node'}, found ${bytes.length}`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigInt64(0);
}

/** Missing or empty counter data reads as 0 (DistributedAtomic*), otherwise as {@link decodeInt64}. */
export function decodeAtomicInt64(bytes: Uint8Array | null | undefined, path?: string): bigint {
  return bytes == null || bytes.length === 0 ? 0n : decodeInt64(bytes, path);
}

/** Missing or empty counter data reads as 0 (DistributedAtomic*), otherwise as {@link decodeInt32}. */
export function decodeAtomicInt32(bytes: Uint8Array | null | undefined, path?: string): number {
  return bytes == null || bytes.length === 0 ? 0 : decodeInt32(bytes, path);
}
