import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch } from './batch-format.js';
import { CorruptQueueItemError, QueueError } from './errors.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('batch format', () => {
  it('encodes a single item exactly as Curator 5.4.0 did (observed bytes)', () => {
    expect(encodeBatch([utf8('hello')]).toString('hex')).toBe('00010001010000000568656c6c6f02');
  });

  it('encodes putMulti("a", "", "bc") exactly as observed, empty items included', () => {
    const bytes = encodeBatch([utf8('a'), utf8(''), utf8('bc')]);
    expect(bytes.toString('hex')).toBe('000100010100000001610100000000010000000262' + '6302');
    expect(bytes.length).toBe(23);
  });

  it('decodes the observed Curator bytes', () => {
    const items = decodeBatch(hex('00010001 01 00000001 61 01 00000000 01 00000002 6263 02'));
    expect(items.map((b) => b.toString())).toEqual(['a', '', 'bc']);
  });

  it('ignores bytes after the end opcode, as Curator does', () => {
    expect(decodeBatch(hex('00010001 01 00000001 61 02 ffff')).map(String)).toEqual(['a']);
  });

  it('round-trips any list of byte strings', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (items) => {
        const decoded = decodeBatch(encodeBatch(items));
        expect(decoded.map((b) => [...b])).toEqual(items.map((b) => [...b]));
      }),
    );
  });

  it('accepts a plain Uint8Array, not only a Buffer', () => {
    const bytes = new Uint8Array(encodeBatch([utf8('x')]));
    expect(decodeBatch(bytes).map(String)).toEqual(['x']);
  });

  const corruptCases: [string, string, RegExp][] = [
    ['empty', '', /too short/],
    ['short version', '000100', /too short/],
    ['wrong version', '00010002 02', /version 0x00010002/],
    ['unknown opcode', '00010001 03', /unknown opcode 0x3/],
    ['no end opcode', '00010001', /truncated/],
    ['no end opcode after an item', '00010001 01 00000001 61', /truncated/],
    ['truncated length', '00010001 01 0000', /truncated item length/],
    ['negative length', '00010001 01 ffffffff 02', /negative item length -1/],
    ['item past the end', '00010001 01 00000005 6162 02', /runs past the end/],
  ];
  for (const [name, bytes, message] of corruptCases) {
    it(`rejects a corrupt batch (${name}) with a typed error naming the path`, () => {
      let caught: unknown;
      try {
        decodeBatch(hex(bytes), '/q/queue-0000000007');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CorruptQueueItemError);
      expect(QueueError.isInstance(caught)).toBe(true);
      const error = caught as CorruptQueueItemError;
      expect(error.code).toBe('CORRUPT_ITEM');
      expect(error.path).toBe('/q/queue-0000000007');
      expect(error.message).toMatch(message);
      expect(error.message).toContain('/q/queue-0000000007');
    });
  }

  it('never throws anything but CorruptQueueItemError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        try {
          decodeBatch(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(CorruptQueueItemError);
        }
      }),
    );
  });
});
