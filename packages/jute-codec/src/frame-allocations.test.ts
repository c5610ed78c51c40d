// "A frame writer that builds each frame in one allocation" (issue 2 §3): every Buffer allocation function is
// spied on while a frame is built, and exactly one call is expected per frame, for every kind of frame.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpCode, Xid } from './constants';
import { fast } from './fast';
import { encodeConnectRequest, encodeRequestFrame } from './frame-writer';
import type { JuteRecord } from './layouts';
import { type ACL, records } from './records';
import { arbitraryOf } from './testing/arbitraries';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Builds one frame under spies on every Buffer allocator; returns the frame and the number of allocations. */
function allocationsOf(build: () => Buffer): { frame: Buffer; allocations: number } {
  const spies = [
    vi.spyOn(Buffer, 'alloc'),
    vi.spyOn(Buffer, 'allocUnsafe'),
    vi.spyOn(Buffer, 'allocUnsafeSlow'),
    // Not allocators by name, but each would be a second buffer: they must not be called at all.
    vi.spyOn(Buffer, 'from'),
    vi.spyOn(Buffer, 'concat'),
  ];
  try {
    const frame = build();
    return { frame, allocations: spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function expectOneAllocation(build: () => Buffer): void {
  const { frame, allocations } = allocationsOf(build);
  expect(allocations).toBe(1);
  // The one allocation is the frame itself, whole: its length prefix covers the rest of it.
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
}

const xid = fc.integer({ min: -2147483648, max: 2147483647 });
const path = fc.string({ unit: 'binary', maxLength: 60 });
const data = fc.option(
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  { freq: 6 },
);
const acl: fc.Arbitrary<ACL[]> = fc.array(
  fc.record({
    perms: fc.integer({ min: 0, max: 31 }),
    id: fc.record({ scheme: fc.string({ maxLength: 10 }), id: fc.string({ maxLength: 30 }) }),
  }),
  { maxLength: 4 },
);

describe('one allocation per frame', () => {
  it('the spies see an allocation (they are live)', () => {
    const live = [
      () => Buffer.alloc(1),
      () => Buffer.allocUnsafe(2),
      () => Buffer.allocUnsafeSlow(3),
      () => Buffer.from('x'),
      () => Buffer.concat([]),
    ];
    for (const allocate of live) expect(allocationsOf(allocate).allocations).toBeGreaterThanOrEqual(1);
    expect(allocationsOf(() => Buffer.alloc(0).subarray(0)).allocations).toBe(1);
  });

  it('header-only frames (ping, closeSession, whoAmI)', () => {
    expectOneAllocation(() => encodeRequestFrame(Xid.PING, OpCode.ping));
    expectOneAllocation(() => encodeRequestFrame(7, OpCode.closeSession));
    expectOneAllocation(() => encodeRequestFrame(8, OpCode.whoAmI));
  });

  it('encodeRequestFrame with every record as the body, random values (property)', () => {
    for (const record of Object.values(records) as JuteRecord<unknown>[]) {
      fc.assert(
        fc.property(xid, arbitraryOf(record.layout), (x, value) => {
          expectOneAllocation(() => encodeRequestFrame(x, OpCode.create, record, value));
        }),
        { numRuns: 30 },
      );
    }
  });

  it('the connect frame', () => {
    fc.assert(
      fc.property(arbitraryOf(records.ConnectRequest.layout), fc.boolean(), (request, readOnly) => {
        expectOneAllocation(() => encodeConnectRequest({ ...request, readOnly }));
      }),
      { numRuns: 50 },
    );
  });

  it('every fast frame encoder (property)', () => {
    fc.assert(
      fc.property(xid, path, fc.boolean(), data, fc.integer(), acl, (x, p, watch, d, n, a) => {
        expectOneAllocation(() => fast.encodeGetDataRequestFrame(x, p, watch));
        expectOneAllocation(() => fast.encodeExistsRequestFrame(x, p, watch));
        expectOneAllocation(() => fast.encodeGetChildrenRequestFrame(x, p, watch));
        expectOneAllocation(() => fast.encodeSetDataRequestFrame(x, p, d, n | 0));
        expectOneAllocation(() => fast.encodeDeleteRequestFrame(x, p, n | 0));
        for (const op of [OpCode.create, OpCode.create2, OpCode.createContainer]) {
          expectOneAllocation(() => fast.encodeCreateRequestFrame(x, op, p, d, a, n | 0));
        }
      }),
      { numRuns: 100 },
    );
  });
});
