import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ViewedFrame } from './viewed-frame';

/** A frame cut at `start` from a larger buffer, as frames are cut from a pool or slab. */
function frameIn(parent: Buffer, start: number, size: number): Buffer {
  return parent.subarray(start, start + size);
}

describe('ViewedFrame writes what Buffer writes, at offsets into the frame (property)', () => {
  it('int32, byte and copy land in the frame, big-endian, and nowhere else', () => {
    const writes = fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('int32' as const),
          value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        }),
        fc.record({ kind: fc.constant('byte' as const), value: fc.integer({ min: 0, max: 255 }) }),
        // both sides of the 16-byte limit between the JavaScript copy and Uint8Array#set
        fc.record({ kind: fc.constant('copy' as const), bytes: fc.uint8Array({ maxLength: 40 }) }),
      ),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(fc.nat(64), writes, (start, list) => {
        const size = list.reduce(
          (n, w) => n + (w.kind === 'int32' ? 4 : w.kind === 'byte' ? 1 : w.bytes.length),
          0,
        );
        const parent = Buffer.alloc(start + size + 8, 0xee);
        const out = new ViewedFrame(frameIn(parent, start, size));
        const expected = Buffer.alloc(size);
        let at = 0;
        for (const w of list) {
          if (w.kind === 'int32') {
            expected.writeInt32BE(w.value, at);
            at = out.int32(at, w.value);
          } else if (w.kind === 'byte') {
            expected[at] = w.value;
            at = out.byte(at, w.value);
          } else {
            expected.set(w.bytes, at);
            at = out.copy(at, w.bytes);
          }
        }
        expect(at).toBe(size);
        expect(parent.subarray(start, start + size)).toEqual(expected);
        expect(parent.subarray(0, start).every((b) => b === 0xee)).toBe(true);
        expect(parent.subarray(start + size).every((b) => b === 0xee)).toBe(true);
      }),
    );
  });

  it('frames of different ArrayBuffers, written in turn, each get their own bytes', () => {
    const a = frameIn(Buffer.alloc(64), 8, 8);
    const b = frameIn(Buffer.alloc(64), 24, 8);
    const outA = new ViewedFrame(a);
    const outB = new ViewedFrame(b);
    outA.int32(0, 0x01020304);
    outB.int32(0, 0x0a0b0c0d);
    outA.int32(4, -1);
    outB.int32(4, 7);
    expect([...a]).toEqual([1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff]);
    expect([...b]).toEqual([0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 7]);
  });

  it('a long copy past the frame throws rather than touching the bytes after it', () => {
    const parent = Buffer.alloc(32, 0xee);
    const out = new ViewedFrame(frameIn(parent, 0, 6));
    expect(() => out.copy(4, new Uint8Array(20))).toThrow(RangeError);
    expect(parent.every((b) => b === 0xee)).toBe(true);
  });
});
