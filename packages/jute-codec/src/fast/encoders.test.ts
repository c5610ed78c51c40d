import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpCode } from '../constants';
import { encodeRequestFrame } from '../frame-writer';
import { type ACL, records } from '../records';
import { outcome } from '../testing/outcome';
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
  it('getData, exists, getChildren', () => {
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
