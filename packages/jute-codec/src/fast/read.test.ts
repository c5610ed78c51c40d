import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { int32At, uint32At } from './read';

describe('fast reads equal Buffer reads (property)', () => {
  // Any bytes at any offset, the sign bit set and clear alike.
  const bytesAndOffset = fc
    .uint8Array({ minLength: 4, maxLength: 40 })
    .chain((bytes) =>
      fc.tuple(fc.constant(Buffer.from(bytes)), fc.integer({ min: 0, max: bytes.length - 4 })),
    );

  it('int32At is readInt32BE', () => {
    fc.assert(
      fc.property(bytesAndOffset, ([buf, offset]) => {
        expect(int32At(buf, offset)).toBe(buf.readInt32BE(offset));
      }),
    );
  });

  it('uint32At is readUInt32BE', () => {
    fc.assert(
      fc.property(bytesAndOffset, ([buf, offset]) => {
        expect(uint32At(buf, offset)).toBe(buf.readUInt32BE(offset));
      }),
    );
  });

  it('reads the extremes', () => {
    expect(int32At(Buffer.from([0x80, 0, 0, 0]), 0)).toBe(-2147483648);
    expect(int32At(Buffer.from([0x7f, 0xff, 0xff, 0xff]), 0)).toBe(2147483647);
    expect(int32At(Buffer.from([0xff, 0xff, 0xff, 0xfe]), 0)).toBe(-2);
    expect(uint32At(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0)).toBe(4294967295);
  });
});
