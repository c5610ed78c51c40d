/**
 * The getChildren names memo (children-memo.ts): the names are always those of the bytes received, each call
 * gets an array of its own, and the memo keeps to its bounds.
 */
import { JuteCodecError } from '@zkwire/jute-codec';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { ChildNamesMemo, MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES, MIN_NAMES } from './children-memo.js';

let memo = new ChildNamesMemo();
const childNames = (path: string | undefined, payload: Buffer, offset: number) =>
  memo.childNames(path, payload, offset);
const remembered = () => memo.remembered();

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
/** `names` followed by enough fillers to be long enough for the memo. */
const long = (...names: string[]) => [
  ...names,
  ...Array.from({ length: MIN_NAMES }, (_, i) => `filler-${i}`),
];

describe('getChildren names memo', () => {
  beforeEach(() => {
    memo = new ChildNamesMemo();
  });

  it('gives the names of the bytes received, for repeated and changed lists alike (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('/a', '/b'),
            fc.oneof(
              fc.array(name, { maxLength: 8 }),
              fc.array(name, { minLength: MIN_NAMES, maxLength: MIN_NAMES + 8 }),
            ),
          ),
          { maxLength: 12 },
        ),
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
    const before = long('lock-0001', 'lock-0002');
    const after = long('lock-0001', 'lock-0003');
    expect(childNames('/p', reply(before), 16)).toEqual(before);
    expect(remembered().lists).toBe(1);
    expect(childNames('/p', reply(after), 16)).toEqual(after);
    expect(childNames('/p', reply(before), 16)).toEqual(before);
  });

  it('hands each call an array of its own', () => {
    const names = long('b', 'a');
    const first = childNames('/p', reply(names), 16);
    first.sort();
    first.push('x');
    const second = childNames('/p', reply(names), 16);
    expect(second).toEqual(names);
    second.reverse();
    expect(childNames('/p', reply(names), 16)).toEqual(names);
    expect(childNames('/p', reply(names), 16)).not.toBe(childNames('/p', reply(names), 16));
  });

  it('still refuses bad bytes with a codec error, memo or not', () => {
    const good = reply(long('a', 'b'));
    childNames('/p', good, 16);
    const bad = Buffer.from(good);
    bad.writeInt32BE(1000, 16 + 4); // the first name claims more bytes than there are
    expect(() => childNames('/p', bad, 16)).toThrow(JuteCodecError);
    expect(childNames('/p', good, 16)).toEqual(long('a', 'b'));
  });

  it('keeps no list over its size bound and no more than its total', () => {
    const big = Array.from({ length: MAX_ENTRY_BYTES / 8 }, (_, i) => `n${i}`);
    expect(childNames('/big', reply(big), 16)).toEqual(big);
    expect(remembered().bytes).toBe(0);
    const names = Array.from({ length: 2000 }, (_, i) => `child-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < 40; i++) {
      expect(childNames(`/p${i}`, reply(names), 16)).toEqual(names);
      expect(remembered().bytes).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
    }
    expect(remembered().bytes).toBeGreaterThan(0);
  });

  it('keeps no short list and no more lists than its count bound', () => {
    const short = Array.from({ length: MIN_NAMES - 1 }, (_, i) => `s${i}`);
    expect(childNames('/short', reply(short), 16)).toEqual(short);
    expect(remembered().lists).toBe(0);
    const names = Array.from({ length: MIN_NAMES }, (_, i) => `n${i}`);
    for (let i = 0; i < MAX_ENTRIES * 2; i++) {
      expect(childNames(`/p${i}`, reply(names), 16)).toEqual(names);
      expect(remembered().lists).toBeLessThanOrEqual(MAX_ENTRIES);
    }
    expect(remembered().lists).toBe(MAX_ENTRIES);
  });

  it('drops the least recently used list first, a list read again counting as used', () => {
    const names = Array.from({ length: MIN_NAMES }, (_, i) => `n${i}`);
    const paths = Array.from({ length: MAX_ENTRIES }, (_, i) => `/p${i}`);
    for (const path of paths) childNames(path, reply(names), 16);
    expect(remembered().paths).toEqual(paths);
    // Read twice (the second time it is already the most recent), then another: /p0 is kept, /p1 dropped.
    expect(childNames('/p0', reply(names), 16)).toEqual(names);
    expect(childNames('/p0', reply(names), 16)).toEqual(names);
    expect(remembered().paths).toEqual([...paths.slice(1), '/p0']);
    childNames('/new', reply(names), 16);
    expect(remembered().paths).toEqual([...paths.slice(2), '/p0', '/new']);
    // A list remembered is the most recent one: reading /p0 again now moves it behind /new.
    childNames('/p0', reply(names), 16);
    expect(remembered().paths.slice(-2)).toEqual(['/new', '/p0']);
  });
});
