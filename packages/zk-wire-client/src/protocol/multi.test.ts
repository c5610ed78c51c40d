/**
 * The fixed-offset multi and multiRead encoders (multi-parts.ts) write exactly the bytes of the generic
 * jute records, for every op kind, on random values; and the result reader refuses truncated bytes with a
 * codec error (which ends the connection) instead of reading past the frame.
 */
import { JuteCodecError, OpCode, records } from '@zkwire/jute-codec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CreateMode } from '../util/types.js';
import { createFlags, createOpCode } from './create.js';
import {
  checkedMulti,
  encodeMulti,
  encodeMultiRead,
  type MultiOpArgs,
  multiReply,
  type ReadOpArgs,
} from './multi.js';
import { multiContext } from './multi-context.js';

type Generic = { size(v: unknown): number; encode(v: unknown, b: Buffer, o: number): number };
const rec = (r: unknown) => r as Generic;

/** The reference: every part through the generic buffer-layout records. */
function referenceFrame(
  xid: number,
  opCode: number,
  parts: { type: number; record: Generic; value: unknown }[],
) {
  const header = rec(records.MultiHeader);
  let body = 9;
  for (const p of parts) body += 9 + p.record.size(p.value);
  const frame = Buffer.alloc(12 + body);
  frame.writeInt32BE(8 + body, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeInt32BE(opCode, 8);
  let at = 12;
  for (const p of parts) {
    at += header.encode({ type: p.type, done: false, err: -1 }, frame, at);
    at += p.record.encode(p.value, frame, at);
  }
  header.encode({ type: -1, done: true, err: -1 }, frame, at);
  return frame;
}

const path = fc.stringMatching(/^\/[a-zé0-9/]{0,20}$/);
const data = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null });
const version = fc.integer({ min: -1, max: 2 ** 31 - 1 });
const modes: CreateMode[] = Object.keys(createFlags) as CreateMode[];
const acl = fc.array(
  fc.record({
    perms: fc.integer({ min: 0, max: 31 }),
    id: fc.record({ scheme: fc.constantFrom('world', 'digest', 'ip'), id: fc.string({ maxLength: 12 }) }),
  }),
  { maxLength: 3 },
);
const op: fc.Arbitrary<MultiOpArgs> = fc.oneof(
  fc
    .record({ path, mode: fc.constantFrom(...modes), data, acl, ttl: fc.bigInt({ min: 1n, max: 2n ** 40n }) })
    .map(
      (c): MultiOpArgs => ({
        type: 'create',
        path: c.path,
        create: { serverPath: c.path, data: c.data, acl: c.acl, mode: c.mode, ttl: c.ttl },
      }),
    ),
  fc.record({ path, version }).map((d): MultiOpArgs => ({ type: 'delete', serverPath: d.path, ...d })),
  fc.record({ path, version }).map((d): MultiOpArgs => ({ type: 'check', serverPath: d.path, ...d })),
  fc.record({ path, version, data }).map((d): MultiOpArgs => ({ type: 'setData', serverPath: d.path, ...d })),
);

function referencePart(o: MultiOpArgs): { type: number; record: Generic; value: unknown } {
  switch (o.type) {
    case 'create': {
      const c = o.create;
      const type = createOpCode(c.mode, true);
      const base = { path: c.serverPath, data: c.data, acl: c.acl, flags: createFlags[c.mode] };
      return type === OpCode.createTTL
        ? { type, record: rec(records.CreateTTLRequest), value: { ...base, ttl: c.ttl } }
        : { type, record: rec(records.CreateRequest), value: base };
    }
    case 'delete':
      return {
        type: OpCode.delete,
        record: rec(records.DeleteRequest),
        value: { path: o.serverPath, version: o.version },
      };
    case 'check':
      return {
        type: OpCode.check,
        record: rec(records.CheckVersionRequest),
        value: { path: o.serverPath, version: o.version },
      };
    case 'setData':
      return {
        type: OpCode.setData,
        record: rec(records.SetDataRequest),
        value: { path: o.serverPath, data: o.data, version: o.version },
      };
  }
}

describe('multi encoding', () => {
  it('writes the generic records byte for byte (every op kind, random values)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 2 }), fc.array(op, { maxLength: 8 }), (xid, ops) => {
        const expected = referenceFrame(xid, OpCode.multi, ops.map(referencePart));
        expect(encodeMulti(xid, checkedMulti(ops)).equals(expected)).toBe(true);
      }),
    );
  });

  it('writes the generic records when more paths come than the path-bytes table holds (it starts over)', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1500; i++) {
        const o: MultiOpArgs = { type: 'check', path: `/p${i}é`, serverPath: `/p${i}é`, version: i };
        const expected = referenceFrame(i + 1, OpCode.multi, [referencePart(o)]);
        expect(encodeMulti(i + 1, checkedMulti([o])).equals(expected)).toBe(true);
      }
    }
  });

  it('writes multiRead as the generic records', () => {
    const readOp = fc.record({ path, type: fc.constantFrom('getData' as const, 'getChildren' as const) });
    fc.assert(
      fc.property(fc.array(readOp, { maxLength: 8 }), (ops) => {
        const args: ReadOpArgs[] = ops.map((o) => ({ ...o, serverPath: o.path }));
        const expected = referenceFrame(
          7,
          OpCode.multiRead,
          args.map((o) => ({
            type: o.type === 'getData' ? OpCode.getData : OpCode.getChildren,
            record: rec(o.type === 'getData' ? records.GetDataRequest : records.GetChildrenRequest),
            value: { path: o.serverPath, watch: false },
          })),
        );
        expect(encodeMultiRead(7, args).equals(expected)).toBe(true);
      }),
    );
  });

  it("shares one frozen types array among multis whose ops are all of one type, and copies a mixed multi's", () => {
    const setData = (path: string): MultiOpArgs => ({
      type: 'setData',
      path,
      serverPath: path,
      data: null,
      version: -1,
    });
    const first = multiContext(checkedMulti([setData('/a'), setData('/b')]));
    const second = multiContext(checkedMulti([setData('/c'), setData('/d')]));
    expect(second.types).toBe(first.types);
    expect(first.types).toEqual(['setData', 'setData']);
    expect(Object.isFrozen(first.types)).toBe(true);
    expect(second.paths).toEqual(['/c', '/d']);
    // another count or another type is another array
    expect(multiContext(checkedMulti([setData('/a')])).types).not.toBe(first.types);
    // a mixed multi's types are copied: the client reuses its checked ops for the next multi
    const mixed = checkedMulti([setData('/a'), { type: 'check', path: '/b', serverPath: '/b', version: 1 }]);
    const mixedTypes = multiContext(mixed).types;
    expect(mixedTypes).toEqual(['setData', 'check']);
    expect(mixedTypes).not.toBe(mixed.types);
    // only the multi's own ops count (one per path), not what a longer earlier multi left in the arrays
    mixed.paths = ['/a'];
    expect(multiContext(mixed).types).toEqual(['setData']);
  });

  it('refuses a truncated multi reply with a codec error', () => {
    const header = Buffer.alloc(9);
    header.writeInt32BE(OpCode.delete, 0);
    const payload = Buffer.concat([Buffer.alloc(16), header, Buffer.alloc(4)]); // a second header cut short
    const request = {
      context: multiContext(checkedMulti([{ type: 'delete', path: '/a', serverPath: '/a', version: -1 }])),
    };
    const context = { chroot: { toClient: (p: string) => p } };
    expect(() => multiReply.decode(context as never, request as never, 0, payload, 16)).toThrow(
      JuteCodecError,
    );
  });

  it('reads setData results as the generic Stat record (random values), and refuses a Stat cut short', () => {
    const long = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    const int = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    const stat = fc.record({
      czxid: long,
      mzxid: long,
      ctime: long,
      mtime: long,
      version: int,
      cversion: int,
      aversion: int,
      ephemeralOwner: long,
      dataLength: int,
      numChildren: int,
      pzxid: long,
    });
    const header = rec(records.MultiHeader);
    const statRecord = rec(records.Stat);
    const context = { chroot: { toClient: (p: string) => p } };
    fc.assert(
      fc.property(fc.array(stat, { minLength: 1, maxLength: 10 }), (stats) => {
        const parts = [Buffer.alloc(16)];
        for (const s of stats) {
          const part = Buffer.alloc(9 + 68);
          header.encode({ type: OpCode.setData, done: false, err: 0 }, part, 0);
          statRecord.encode(s, part, 9);
          parts.push(part);
        }
        const end = Buffer.alloc(9);
        header.encode({ type: -1, done: true, err: -1 }, end, 0);
        // At an odd offset of a larger buffer, as replies sit in the client's read buffer.
        const payload = Buffer.concat([Buffer.alloc(3), ...parts, end]).subarray(3);
        const ops = stats.map(
          (): MultiOpArgs => ({
            type: 'setData',
            path: '/a',
            serverPath: '/a',
            data: null,
            version: -1,
          }),
        );
        const results = multiReply.decode(
          context as never,
          { context: multiContext(checkedMulti(ops)) } as never,
          0,
          payload,
          16,
        );
        expect(results).toEqual(stats.map((s) => ({ type: 'setData', stat: s })));
        const cut = payload.subarray(0, 16 + 9 + 67);
        expect(() =>
          multiReply.decode(
            context as never,
            { context: multiContext(checkedMulti(ops)) } as never,
            0,
            cut,
            16,
          ),
        ).toThrow(JuteCodecError);
      }),
      { numRuns: 100 },
    );
  });

  it('reads create and create2 results (any path, chroot stripped) and finds the result after each', () => {
    const stat = {
      czxid: 0x5_0000_0001n,
      mzxid: 0x5_0000_0002n,
      ctime: 1_764_000_000_000n,
      mtime: 1_764_000_000_001n,
      version: 0,
      cversion: 0,
      aversion: 0,
      ephemeralOwner: 0n,
      dataLength: 3,
      numChildren: 0,
      pzxid: 0x5_0000_0001n,
    };
    const header = rec(records.MultiHeader);
    const part = (type: number, record: unknown, value: unknown) => {
      const body = rec(record);
      const bytes = Buffer.alloc(9 + body.size(value));
      header.encode({ type, done: false, err: 0 }, bytes, 0);
      body.encode(value, bytes, 9);
      return bytes;
    };
    const context = { chroot: { toClient: (p: string) => p.slice('/app'.length) || '/' } };
    const name = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(name, name, (a, b) => {
        const end = Buffer.alloc(9);
        header.encode({ type: -1, done: true, err: -1 }, end, 0);
        const payload = Buffer.concat([
          Buffer.alloc(16),
          part(OpCode.create2, records.Create2Response, { path: `/app/${a}`, stat }),
          part(OpCode.create, records.CreateResponse, { path: `/app/${b}` }),
          part(OpCode.setData, records.Stat, stat),
          end,
        ]);
        const ops: MultiOpArgs[] = [
          { type: 'create', path: `/${a}`, create: { serverPath: `/app/${a}` } as never },
          { type: 'create', path: `/${b}`, create: { serverPath: `/app/${b}` } as never },
          { type: 'setData', path: '/c', serverPath: '/app/c', data: null, version: -1 },
        ];
        const results = multiReply.decode(
          context as never,
          { context: multiContext(checkedMulti(ops)) } as never,
          0,
          payload,
          16,
        );
        expect(results).toEqual([
          { type: 'create', path: `/${a}`, stat },
          { type: 'create', path: `/${b}`, stat: null },
          { type: 'setData', stat },
        ]);
      }),
      { numRuns: 200 },
    );
  });
});
