import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSetWatches, type WatchBatch } from './set-watches.js';

const paths = fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { maxLength: 8 });
const batch: fc.Arbitrary<WatchBatch> = fc.record({
  data: paths,
  exist: paths,
  child: paths,
  persistent: paths,
  persistentRecursive: paths,
});
const xid = fc.integer({ min: -2147483648, max: 2147483647 });
const zxid = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

/** A large frame as one string: compared at once, where toEqual walks the bytes one by one. */
const hex = (frame: Buffer) => frame.toString('hex');

/** The frame the generic jute records make of `b`. */
function generic(x: number, relativeZxid: bigint, b: WatchBatch): Buffer {
  const base = { relativeZxid, dataWatches: b.data, existWatches: b.exist, childWatches: b.child };
  if (b.persistent.length > 0 || b.persistentRecursive.length > 0) {
    return encodeRequestFrame(x, OpCode.setWatches2, records.SetWatches2, {
      ...base,
      persistentWatches: b.persistent,
      persistentRecursiveWatches: b.persistentRecursive,
    });
  }
  return encodeRequestFrame(x, OpCode.setWatches, records.SetWatches, base);
}

describe('the SetWatches frame equals encodeRequestFrame with the generic records', () => {
  it('for any batch: ASCII, multi-byte and lone surrogates, short and long paths, empty tables (property)', () => {
    fc.assert(
      fc.property(xid, zxid, batch, (x, z, b) => {
        expect(encodeSetWatches(x, z, b)).toEqual(generic(x, z, b));
      }),
      { numRuns: 200 },
    );
  });

  it('for a restore-sized batch of tree paths, with and without persistent watches', () => {
    const tree = Array.from({ length: 3000 }, (_, i) => `/zkwire-bench-root/scale10000/n${i % 100}/n${i}`);
    const plain = {
      data: tree,
      exist: ['/gone', '/é/ü'],
      child: tree.slice(0, 50),
      persistent: [],
      persistentRecursive: [],
    };
    expect(hex(encodeSetWatches(-8, 0x1_0000_0042n, plain))).toBe(hex(generic(-8, 0x1_0000_0042n, plain)));
    const withPersistent = { ...plain, persistentRecursive: ['/a', `/${'long'.repeat(40)}`] };
    const frame = encodeSetWatches(-8, 7n, withPersistent);
    expect(hex(frame)).toBe(hex(generic(-8, 7n, withPersistent)));
    expect(frame.readInt32BE(8)).toBe(OpCode.setWatches2);
  });

  it('refuses a path that is not a string, as the generic records do', () => {
    const bad = {
      data: [3 as unknown as string],
      exist: [],
      child: [],
      persistent: [],
      persistentRecursive: [],
    };
    expect(() => encodeSetWatches(-8, 0n, bad)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
    expect(() => generic(-8, 0n, bad)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
  });
});
