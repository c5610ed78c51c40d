import { describe, expect, it } from 'vitest';
import {
  decodeAtomicInt32,
  decodeAtomicInt64,
  decodeInt32,
  decodeInt64,
  encodeInt32,
  encodeInt64,
} from './big-endian-codec';
import { BadRecipeDataError, InvalidRecipeArgumentError } from './recipe-errors.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('counter byte layouts', () => {
  it('matches the bytes Curator wrote in the observations of curator/README.md', () => {
    expect(hex(encodeInt32(-2))).toBe('fffffffe'); // SharedCount -2
    expect(hex(encodeInt32(-3))).toBe('fffffffd'); // DistributedAtomicInteger -3
    expect(hex(encodeInt32(3))).toBe('00000003'); // kazoo Counter(support_curator) +3
    expect(hex(encodeInt64(256n))).toBe('0000000000000100'); // DistributedAtomicLong 1 then +255
  });

  it('round-trips the extremes', () => {
    for (const v of [0, 1, -1, 2 ** 31 - 1, -(2 ** 31)]) expect(decodeInt32(encodeInt32(v))).toBe(v);
    for (const v of [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n)]) expect(decodeInt64(encodeInt64(v))).toBe(v);
  });

  it('reads from a view into a larger buffer, at its offset', () => {
    const backing = Buffer.from('ff0000002aff', 'hex');
    expect(decodeInt32(backing.subarray(1, 5))).toBe(42);
  });

  it('reads like ByteBuffer.getInt: extra trailing bytes are ignored', () => {
    expect(decodeInt32(Buffer.from('0000000700ff', 'hex'))).toBe(7);
  });

  it('refuses short data with a typed error instead of reading garbage', () => {
    expect(() => decodeInt32(Buffer.from('0001', 'hex'), '/c')).toThrow(BadRecipeDataError);
    expect(() => decodeInt64(Buffer.from('00000001', 'hex'))).toThrowError(/8 bytes/);
    expect(() => decodeInt32(new Uint8Array(0))).toThrow(expect.objectContaining({ code: 'BAD_DATA' }));
  });

  it('reads missing or empty atomic data as 0', () => {
    expect(decodeAtomicInt64(null)).toBe(0n);
    expect(decodeAtomicInt64(new Uint8Array(0))).toBe(0n);
    expect(decodeAtomicInt32(undefined)).toBe(0);
    expect(() => decodeAtomicInt64(new Uint8Array(3))).toThrow(BadRecipeDataError);
  });

  it('refuses values out of range before encoding', () => {
    expect(() => encodeInt32(2 ** 31)).toThrow(InvalidRecipeArgumentError);
    expect(() => encodeInt32(1.5)).toThrow(InvalidRecipeArgumentError);
    expect(() => encodeInt64(2n ** 63n)).toThrow(InvalidRecipeArgumentError);
    expect(hex(encodeInt64(BigInt(-1)))).toBe('ffffffffffffffff');
  });
});
