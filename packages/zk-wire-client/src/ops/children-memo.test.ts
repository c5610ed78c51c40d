/**
 * The getChildren names memo (children-memo.ts): the names are always those of the bytes received, each call
 * gets an array of its own, and the memo keeps to its bounds.
 */
import { JuteCodecError } from '@zkwire/jute-codec';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  childNames,
  clearChildNames,
  MAX_ENTRY_BYTES,
  MAX_TOTAL_BYTES,
  rememberedBytes,
} from './children-memo.js';

/** A reply payload: a 16-byte header, then GetChildrenResponse { vector<ustring> }. */
function reply(names: string[]): Buffer {
  const parts = [Buffer.alloc(16), Buffer.alloc(4)];
  parts[1]!.writeInt32BE(names.length, 0);
  for (const name of names) {
    const bytes = Buffer.from(name, 'utf8');
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes.length, 0);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

const name = fc.string({ unit: 'grapheme', maxLength: 12 });

describe('getChildren names memo', () => {
  beforeEach(() => clearChildNames());

  it('gives the names of the bytes received, for repeated and changed lists alike (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('/a', '/b'), fc.array(name, { maxLength: 20 })), { maxLength: 12 }),
        (calls) => {
          for (const [path, names] of calls) {
            expect(childNames(path, reply(names), 16)).toEqual(names);
            // The same bytes again: answered from the memo, still the same names.
            expect(childNames(path, reply(names), 16)).toEqual(names);
          }
        },
      ),
    );
  });

  it('tells apart lists of the same length that differ in one byte', () => {
    expect(childNames('/p', reply(['lock-0001', 'lock-0002']), 16)).toEqual(['lock-0001', 'lock-0002']);
    expect(childNames('/p', reply(['lock-0001', 'lock-0003']), 16)).toEqual(['lock-0001', 'lock-0003']);
  });

  it('hands each call an array of its own', () => {
    const first = childNames('/p', reply(['b', 'a']), 16);
    first.sort();
    first.push('x');
    expect(childNames('/p', reply(['b', 'a']), 16)).toEqual(['b', 'a']);
    const second = childNames('/p', reply(['b', 'a']), 16);
    expect(second).not.toBe(childNames('/p', reply(['b', 'a']), 16));
  });

  it('still refuses bad bytes with a codec error, memo or not', () => {
    const good = reply(['a', 'b']);
    childNames('/p', good, 16);
    const bad = Buffer.from(good);
    bad.writeInt32BE(1000, 16 + 4); // the first name claims more bytes than there are
    expect(() => childNames('/p', bad, 16)).toThrow(JuteCodecError);
    expect(childNames('/p', good, 16)).toEqual(['a', 'b']);
  });

  it('keeps no list over its size bound and no more than its total', () => {
    const big = Array.from({ length: MAX_ENTRY_BYTES / 8 }, (_, i) => `n${i}`);
    expect(childNames('/big', reply(big), 16)).toEqual(big);
    expect(rememberedBytes()).toBe(0);
    const names = Array.from({ length: 2000 }, (_, i) => `child-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < 40; i++) {
      expect(childNames(`/p${i}`, reply(names), 16)).toEqual(names);
      expect(rememberedBytes()).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
    }
    expect(rememberedBytes()).toBeGreaterThan(0);
  });
});
