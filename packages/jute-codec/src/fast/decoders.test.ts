import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../codec';
import type { JuteRecord } from '../layouts';
import { records } from '../records';
import { arbitraryOf } from '../testing/arbitraries';
import { outcome } from '../testing/outcome';
import { fast } from './index';

type FastDecoder = (buf: Buffer, offset: number, end: number) => unknown;

const pairs: [string, JuteRecord<unknown>, FastDecoder][] = [
  ['ReplyHeader', records.ReplyHeader as JuteRecord<unknown>, fast.decodeReplyHeader],
  ['Stat', records.Stat as JuteRecord<unknown>, fast.decodeStat],
  ['GetDataResponse', records.GetDataResponse as JuteRecord<unknown>, fast.decodeGetDataResponse],
  ['ExistsResponse', records.ExistsResponse as JuteRecord<unknown>, fast.decodeExistsResponse],
  ['SetDataResponse', records.SetDataResponse as JuteRecord<unknown>, fast.decodeSetDataResponse],
  ['GetChildrenResponse', records.GetChildrenResponse as JuteRecord<unknown>, fast.decodeGetChildrenResponse],
  ['CreateResponse', records.CreateResponse as JuteRecord<unknown>, fast.decodeCreateResponse],
  ['Create2Response', records.Create2Response as JuteRecord<unknown>, fast.decodeCreate2Response],
];

// The generic decoder's view of the same input.
function generic(record: JuteRecord<unknown>, buf: Buffer, offset: number, end: number) {
  return outcome(() => record.decode(buf, offset, end).value);
}

const padding = fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b));

describe.each(pairs)('fast %s decoder', (_name, record, decodeFast) => {
  it('equals the generic decoder on encoded values at any offset (property)', () => {
    fc.assert(
      fc.property(arbitraryOf(record.layout), padding, padding, (value, before, after) => {
        const bytes = Buffer.concat([before, encode(record, value), after]);
        const end = bytes.length - after.length;
        const fastResult = outcome(() => decodeFast(bytes, before.length, end));
        expect(fastResult).toEqual({ value });
        expect(fastResult).toEqual(generic(record, bytes, before.length, end));
      }),
      { numRuns: 300 },
    );
  });

  it('fails like the generic decoder on truncated encodings (property)', () => {
    fc.assert(
      fc.property(arbitraryOf(record.layout), fc.nat(), (value, cut) => {
        const bytes = encode(record, value);
        const end = cut % (bytes.length + 1);
        expect(outcome(() => decodeFast(bytes, 0, end))).toEqual(generic(record, bytes, 0, end));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the generic decoder on random bytes (property)', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 120 }),
      // small lengths and counts make the random bytes parse further
      fc
        .array(fc.oneof(fc.constantFrom(0, 1, 2, 0xff), fc.nat(255)), { maxLength: 120 })
        .map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, (raw) => {
        const buf = Buffer.from(raw);
        expect(outcome(() => decodeFast(buf, 0, buf.length))).toEqual(generic(record, buf, 0, buf.length));
      }),
      { numRuns: 500 },
    );
  });
});

// Names that take each branch of the children decoder: all ASCII (one latin1 read), some non-ASCII (UTF-8
// per name), long enough for a length prefix byte >= 0x80, and nulls.
const childName = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 120, maxLength: 140 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const childLists = fc.option(
  fc.oneof(
    fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), { maxLength: 40 }),
    fc.array(fc.option(childName, { freq: 6 }), { maxLength: 40 }),
  ),
  { freq: 8 },
);

describe('fast GetChildrenResponse decoder', () => {
  const record = records.GetChildrenResponse as JuteRecord<unknown>;

  it('equals the generic decoder on ASCII, non-ASCII, long and null names (property)', () => {
    fc.assert(
      fc.property(childLists, padding, padding, (children, before, after) => {
        const value = { children };
        const bytes = Buffer.concat([before, encode(record, value), after]);
        const end = bytes.length - after.length;
        const fastResult = outcome(() => fast.decodeGetChildrenResponse(bytes, before.length, end));
        expect(fastResult).toEqual({ value });
        expect(fastResult).toEqual(generic(record, bytes, before.length, end));
      }),
      { numRuns: 500 },
    );
  });

  it('fails like the generic decoder on cut or corrupted name lists (property)', () => {
    fc.assert(
      fc.property(childLists, fc.nat(), fc.nat(), fc.nat(255), (children, cut, at, byte) => {
        const bytes = encode(record, { children });
        const end = cut % (bytes.length + 1);
        expect(outcome(() => fast.decodeGetChildrenResponse(bytes, 0, end))).toEqual(
          generic(record, bytes, 0, end),
        );
        bytes[at % bytes.length] = byte;
        expect(outcome(() => fast.decodeGetChildrenResponse(bytes, 0, bytes.length))).toEqual(
          generic(record, bytes, 0, bytes.length),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('fast decoders', () => {
  it('return data as a view, null for a -1 length', () => {
    const bytes = Buffer.alloc(4 + 68);
    bytes.writeInt32BE(-1, 0);
    expect(fast.decodeGetDataResponse(bytes, 0, bytes.length).data).toBeNull();
  });

  it('refuse an invalid range', () => {
    expect(outcome(() => fast.decodeStat(Buffer.alloc(68), 1, 0))).toEqual({ code: 'INVALID_VALUE' });
    expect(outcome(() => fast.decodeReplyHeader(Buffer.alloc(16), -1))).toEqual({ code: 'INVALID_VALUE' });
  });

  it('read Stats in a row right when their longs repeat in part (same high half, same low half, same value)', () => {
    const stat = rec(records.Stat);
    const base = {
      czxid: 0x5_0000_0001n,
      mzxid: 0x5_0000_0002n,
      ctime: 1_764_000_000_000n,
      mtime: 1_764_000_000_001n,
      version: 1,
      cversion: 2,
      aversion: 3,
      ephemeralOwner: 0n,
      dataLength: 100,
      numChildren: 0,
      pzxid: -1n,
    };
    const variants = [
      base,
      base,
      { ...base, czxid: 0x6_0000_0001n, mzxid: 0x5_0000_0003n, ephemeralOwner: 0x1_0000_0000n },
      { ...base, ctime: -(2n ** 63n), mtime: 2n ** 63n - 1n, pzxid: 0n },
      base,
    ];
    for (const value of variants) {
      const bytes = Buffer.alloc(68);
      stat.encode(value, bytes, 0);
      expect(fast.decodeStat(bytes, 0, 68)).toEqual(value);
    }
  });

  it('read the Stats of several nodes in turn right, their longs sharing cache slots or not', () => {
    const stat = rec(records.Stat);
    const node = (czxid: bigint, ctime: bigint, pzxid: bigint) => ({
      czxid,
      mzxid: 0x9_0000_0007n,
      ctime,
      mtime: 1_764_000_000_123n,
      version: 0,
      cversion: 0,
      aversion: 0,
      ephemeralOwner: 0n,
      dataLength: 0,
      numChildren: 0,
      pzxid,
    });
    // Same low half with another high half, low halves 64 apart (the same slot), negative low halves, 0.
    const nodes = [
      node(0x5_0000_0001n, 1_764_000_000_000n, 0x5_0000_0001n),
      node(0x6_0000_0001n, 1_764_000_000_064n, 0x5_0000_0041n),
      node(0x5_0000_0041n, -1n, 0x5_ffff_ffffn),
      node(0x5_ffff_ffc1n, 0n, 0n),
      node(-(2n ** 63n), 2n ** 63n - 1n, 0x6_0000_0001n),
    ];
    const order = [0, 1, 2, 3, 4, 0, 2, 1, 4, 3, 0, 0, 1, 3, 2, 4];
    for (const index of order) {
      const bytes = Buffer.alloc(68);
      stat.encode(nodes[index], bytes, 0);
      expect(fast.decodeStat(bytes, 0, 68)).toEqual(nodes[index]);
    }
  });

  it('read right a node whose czxid was seen with another ctime or ephemeralOwner (one half differing)', () => {
    const stat = rec(records.Stat);
    const czxid = 0x7_0000_0005n;
    const node = (ctime: bigint, ephemeralOwner: bigint, czxidOf = czxid) => ({
      czxid: czxidOf,
      mzxid: czxidOf,
      ctime,
      mtime: ctime,
      version: 0,
      cversion: 0,
      aversion: 0,
      ephemeralOwner,
      dataLength: 0,
      numChildren: 0,
      pzxid: czxidOf,
    });
    // The same node entry each time: only one half of one of its three longs differs from the one before.
    const nodes = [
      node(1_764_000_000_000n, 0n),
      node(1_764_000_000_000n, 0x1_0000_0000n),
      node(1_764_000_000_000n, 0x1_0000_0001n),
      node(1_764_000_000_000n + (1n << 32n), 0x1_0000_0001n),
      node(1_764_000_000_001n + (1n << 32n), 0x1_0000_0001n),
      node(1_764_000_000_001n + (1n << 32n), 0x1_0000_0001n, 0x8_0000_0005n),
      node(1_764_000_000_000n, 0n),
    ];
    for (const value of nodes) {
      const bytes = Buffer.alloc(68);
      stat.encode(value, bytes, 0);
      expect(fast.decodeStat(bytes, 0, 68)).toEqual(value);
    }
  });
});

const rec = (r: unknown) => r as { encode(v: unknown, b: Buffer, o: number): number };
