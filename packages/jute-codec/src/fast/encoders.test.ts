import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { OpCode } from '../constants';
import { encodeRequestFrame } from '../frame-writer';
import type { JuteRecord } from '../layouts';
import { type ACL, records } from '../records';
import { outcome } from '../testing/outcome';
import { frameAtSlabStart } from '../testing/slab';
import { releaseFrameBytes } from './frame-alloc';
import { fast } from './index';

const xid = fc.integer({ min: -2147483648, max: 2147483647 });
const int = fc.integer({ min: -2147483648, max: 2147483647 });
const path = fc.string({ unit: 'binary', maxLength: 60 });
const data = fc.option(
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  { freq: 6 },
);
const acl: fc.Arbitrary<ACL[]> = fc.array(
  fc.record({
    perms: int,
    id: fc.record({ scheme: fc.string({ unit: 'binary', maxLength: 10 }), id: fc.string({ maxLength: 30 }) }),
  }),
  { maxLength: 4 },
);

describe('fast request frames equal encodeRequestFrame with the generic records (property)', () => {
  it('getData, exists, getChildren, getChildren2', () => {
    fc.assert(
      fc.property(xid, path, fc.boolean(), (x, p, watch) => {
        const value = { path: p, watch };
        expect(fast.encodeGetDataRequestFrame(x, p, watch)).toEqual(
          encodeRequestFrame(x, OpCode.getData, records.GetDataRequest, value),
        );
        expect(fast.encodeExistsRequestFrame(x, p, watch)).toEqual(
          encodeRequestFrame(x, OpCode.exists, records.ExistsRequest, value),
        );
        expect(fast.encodeGetChildrenRequestFrame(x, p, watch)).toEqual(
          encodeRequestFrame(x, OpCode.getChildren, records.GetChildrenRequest, value),
        );
        expect(fast.encodeGetChildren2RequestFrame(x, p, watch)).toEqual(
          encodeRequestFrame(x, OpCode.getChildren2, records.GetChildren2Request, value),
        );
      }),
    );
  });

  it('setData and delete', () => {
    fc.assert(
      fc.property(xid, path, data, int, (x, p, d, version) => {
        expect(fast.encodeSetDataRequestFrame(x, p, d, version)).toEqual(
          encodeRequestFrame(x, OpCode.setData, records.SetDataRequest, { path: p, data: d, version }),
        );
        expect(fast.encodeDeleteRequestFrame(x, p, version)).toEqual(
          encodeRequestFrame(x, OpCode.delete, records.DeleteRequest, { path: p, version }),
        );
      }),
    );
  });

  it('create, create2, createContainer', () => {
    const opCode = fc.constantFrom(OpCode.create, OpCode.create2, OpCode.createContainer);
    fc.assert(
      fc.property(xid, opCode, path, data, acl, int, (x, op, p, d, a, flags) => {
        expect(fast.encodeCreateRequestFrame(x, op, p, d, a, flags)).toEqual(
          encodeRequestFrame(x, op, records.CreateRequest, { path: p, data: d, acl: a, flags }),
        );
      }),
    );
  });
});

// A reference frame built in zero-filled memory, so bytes left unwritten by an encoder cannot match it by luck.
function reference<T>(xid: number, opCode: number, record: JuteRecord<T>, value: T): Buffer {
  const size = record.size(value);
  const frame = Buffer.alloc(12 + size);
  frame.writeInt32BE(8 + size, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeInt32BE(opCode, 8);
  record.encode(value, frame, 12);
  return frame;
}

/**
 * Fills the first 16 KiB of the frame slab with 0xee and gives them back, so that the next frames are cut
 * from those bytes: a byte an encoder leaves unwritten then shows. Returns where the next frame starts.
 */
function poisonSlab(): { buffer: ArrayBufferLike; byteOffset: number } {
  const frame = frameAtSlabStart(16 * 1024);
  frame.fill(0xee);
  releaseFrameBytes(frame);
  return { buffer: frame.buffer, byteOffset: 0 };
}

describe('fast request frames write every byte (property)', () => {
  it('all fast frames equal a frame built in zero-filled memory', () => {
    // Frames over 16 KiB get memory of their own from allocUnsafe, which holds whatever was there: fill it.
    const allocUnsafe = vi.spyOn(Buffer, 'allocUnsafe').mockImplementation((n) => Buffer.alloc(n, 0xee));
    onTestFinished(() => allocUnsafe.mockRestore());
    let onPoison = 0;
    fc.assert(
      fc.property(xid, path, data, acl, int, fc.boolean(), (x, p, d, a, n, watch) => {
        const poisoned = poisonSlab();
        const first = fast.encodeGetDataRequestFrame(x, p, watch);
        if (first.buffer === poisoned.buffer && first.byteOffset === poisoned.byteOffset) onPoison++;
        expect(first).toEqual(reference(x, OpCode.getData, records.GetDataRequest, { path: p, watch }));
        expect(fast.encodeSetDataRequestFrame(x, p, d, n)).toEqual(
          reference(x, OpCode.setData, records.SetDataRequest, { path: p, data: d, version: n }),
        );
        expect(fast.encodeDeleteRequestFrame(x, p, n)).toEqual(
          reference(x, OpCode.delete, records.DeleteRequest, { path: p, version: n }),
        );
        expect(fast.encodeCreateRequestFrame(x, OpCode.create, p, d, a, n)).toEqual(
          reference(x, OpCode.create, records.CreateRequest, { path: p, data: d, acl: a, flags: n }),
        );
        expect(encodeRequestFrame(x, OpCode.exists, records.ExistsRequest, { path: p, watch })).toEqual(
          reference(x, OpCode.exists, records.ExistsRequest, { path: p, watch }),
        );
      }),
      { numRuns: 200 },
    );
    // the frames were written over the poisoned bytes: the case under test happened
    expect(onPoison).toBe(200);
  });
});

describe('fast request frames refuse bad arguments', () => {
  it.each([
    ['xid', () => fast.encodeGetDataRequestFrame(2 ** 31, '/a', false)],
    ['path', () => fast.encodeExistsRequestFrame(1, null as never, false)],
    ['watch', () => fast.encodeGetDataRequestFrame(1, '/a', 1 as never)],
    ['data', () => fast.encodeSetDataRequestFrame(1, '/a', 'x' as never, 0)],
    ['version', () => fast.encodeDeleteRequestFrame(1, '/a', 1.5)],
    ['acl', () => fast.encodeCreateRequestFrame(1, 1, '/a', null, [{ perms: 1 } as never], 0)],
    ['flags', () => fast.encodeCreateRequestFrame(1, 1, '/a', null, [], Number.NaN)],
  ])('%s', (_name, fn) => {
    expect(outcome(fn)).toEqual({ code: 'INVALID_VALUE' });
  });
});
