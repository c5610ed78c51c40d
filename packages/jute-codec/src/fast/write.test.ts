import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { putInt32, putString, utf8Length } from './write';

// ASCII, any code point (lone surrogates included) and both sides of the 64-character short-string limit.
const text = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 130 }),
  fc.string({ unit: 'binary', maxLength: 130 }),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
);

describe('fast writes equal Buffer encoding (property)', () => {
  it('utf8Length is Buffer.byteLength', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
    );
  });

  it('putString writes the length and the UTF-8 bytes Buffer makes, and nothing else', () => {
    fc.assert(
      fc.property(text, fc.nat(8), (s, at) => {
        const n = utf8Length(s);
        const out = Buffer.alloc(at + 4 + n + 3, 0xee);
        expect(putString(out, s, n, at)).toBe(at + 4 + n);
        const expected = Buffer.alloc(4 + n);
        expected.writeInt32BE(n, 0);
        Buffer.from(s, 'utf8').copy(expected, 4);
        expect(out.subarray(at, at + 4 + n)).toEqual(expected);
        expect(out.subarray(0, at).every((b) => b === 0xee)).toBe(true);
        expect(out.subarray(at + 4 + n).every((b) => b === 0xee)).toBe(true);
      }),
    );
  });

  it('putInt32 is writeInt32BE', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (v) => {
        const ours = Buffer.alloc(6);
        const theirs = Buffer.alloc(6);
        expect(putInt32(ours, v, 1)).toBe(5);
        theirs.writeInt32BE(v, 1);
        expect(ours).toEqual(theirs);
      }),
    );
  });
});
