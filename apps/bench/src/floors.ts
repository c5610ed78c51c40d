/**
 * What a multi of 10 setData costs our client at least, part by part, next to what each part is made of:
 * the figures behind the bench README's account of why ours' CPU per multi stays well above the raw limit's
 * at 1,000 in flight (the raw limit encodes nothing before the clock starts and decodes nothing). Every row is
 * timed in the same process, its alternatives one after the other within each round; the median of the
 * rounds is shown, and each alternative's ratio to the first of its group.
 *
 * Run: `npm run bench:floors` (in apps/bench). No server is needed.
 */
import { Buffer } from 'node:buffer';
import { encode, OpCode, records } from '@zkwire/jute-codec';
import {
  allocFrame,
  bufferView,
  byteOffsetOf,
  copyBytes,
  REPLY_HEADER_SIZE,
  readStatInView,
  STAT_SIZE,
} from '@zkwire/jute-codec/internal';
import {
  Chroot,
  checkedMulti,
  encodeMulti,
  MULTI_HEADER_SIZE,
  multiReply,
} from '@zkwire/zk-wire-client/internal';

/** A group of alternatives timed side by side; the first is the reference of the ratios. */
export interface FloorGroup {
  title: string;
  rows: { name: string; run: () => unknown }[];
}

/** One timed row: median ns per call over the rounds, and its ratio to the group's first row. */
export interface FloorFigure {
  group: string;
  name: string;
  nsPerCall: number;
  ratio: number;
}

const OPS = 10;
const DATA_BYTES = 100;

/** The multi the throughput scenario sends: 10 setData of 100 bytes, on the paths it uses. */
function multiFixture() {
  const paths = Array.from({ length: OPS }, (_, i) => `/zkwire-bench/multi/node-${i}`);
  const data = Buffer.alloc(DATA_BYTES, 0x61);
  const checked = checkedMulti(
    paths.map((path) => ({ type: 'setData' as const, path, serverPath: path, data, version: -1 })),
  );
  return { checked, data, frameBytes: encodeMulti(1, checked).length };
}

/** One Stat per result: ten nodes written by one transaction (one mzxid and mtime, their own czxid). */
const statOf = (i: number) => ({
  czxid: BigInt(4096 + i),
  mzxid: 90_000n,
  ctime: 1_700_000_000_000n + BigInt(i),
  mtime: 1_700_000_500_000n,
  version: 7,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: DATA_BYTES,
  numChildren: 0,
  pzxid: BigInt(4096 + i),
});

/** Bytes of one setData result: its MultiHeader, then its Stat. */
const RESULT_BYTES = MULTI_HEADER_SIZE + STAT_SIZE;

/** A multi reply to it: ReplyHeader, then per op a MultiHeader and a Stat, then the closing MultiHeader. */
function multiReplyFixture(): Buffer {
  return Buffer.concat([
    encode(records.ReplyHeader, { xid: 1, zxid: 90_000n, err: 0 }),
    ...Array.from({ length: OPS }, (_, i) => [
      encode(records.MultiHeader, { type: OpCode.setData, done: false, err: 0 }),
      encode(records.Stat, statOf(i)),
    ]).flat(),
    encode(records.MultiHeader, { type: -1, done: true, err: -1 }),
  ]);
}

/** The groups: the frame's allocation, its encoding, a reply's view, the reply's decoding. */
export function floorGroups(): FloorGroup[] {
  const { checked, data, frameBytes } = multiFixture();
  const payload = multiReplyFixture();
  const view = bufferView(payload);
  const base = payload.byteOffset;
  const replyContext = { chroot: new Chroot(undefined) } as unknown as Parameters<
    typeof multiReply.decode
  >[0];
  const request = { context: checked } as unknown as Parameters<typeof multiReply.decode>[1];
  const target = Buffer.allocUnsafe(frameBytes);
  const path = checked.serverPaths[0] as Uint8Array;
  const statOffsets = Array.from(
    { length: OPS },
    (_, i) => base + REPLY_HEADER_SIZE + i * RESULT_BYTES + MULTI_HEADER_SIZE,
  );
  return [
    {
      title: `a ${frameBytes}-byte request frame`,
      rows: [
        { name: 'Buffer.allocUnsafe', run: () => Buffer.allocUnsafe(frameBytes) },
        { name: 'allocFrame (the codec slab)', run: () => allocFrame(frameBytes) },
      ],
    },
    {
      title: 'encoding the multi of 10 setData',
      rows: [
        { name: 'encodeMulti (the whole frame)', run: () => encodeMulti(1, checked) },
        {
          name: 'its 20 byte copies alone (path, data)',
          run: () => {
            let at = 0;
            for (let i = 0; i < OPS; i++) {
              copyBytes.call(target, path, at);
              copyBytes.call(target, data, at + path.length);
              at += path.length + data.length;
            }
            return at;
          },
        },
      ],
    },
    {
      title: "a reply's ArrayBuffer and offset (for its DataView)",
      rows: [
        {
          name: 'buf.buffer, buf.byteOffset',
          run: () => (payload.buffer === undefined ? 0 : payload.byteOffset),
        },
        {
          name: 'bufferView(buf), byteOffsetOf(buf)',
          run: () => bufferView(payload) && byteOffsetOf(payload),
        },
      ],
    },
    {
      title: 'decoding its reply',
      rows: [
        {
          name: 'multiReply.decode (10 results)',
          run: () => multiReply.decode(replyContext, request, 0, payload, 16),
        },
        {
          name: 'its 10 Stats alone',
          run: () => {
            let stat: unknown;
            for (let i = 0; i < OPS; i++) stat = readStatInView(view, statOffsets[i] as number);
            return stat;
          },
        },
        {
          name: '10 objects of 11 int fields read from the view',
          run: () => {
            let stat: unknown;
            for (let i = 0; i < OPS; i++) {
              const at = statOffsets[i] as number;
              stat = {
                a: view.getInt32(at),
                b: view.getInt32(at + 8),
                c: view.getInt32(at + 16),
                d: view.getInt32(at + 24),
                e: view.getInt32(at + 32),
                f: view.getInt32(at + 36),
                g: view.getInt32(at + 40),
                h: view.getInt32(at + 44),
                i: view.getInt32(at + 52),
                j: view.getInt32(at + 56),
                k: view.getInt32(at + 60),
              };
            }
            return stat;
          },
        },
      ],
    },
  ];
}

/** ns per call of `run`, over about `ms` milliseconds. */
function timeOne(run: () => unknown, ms: number): number {
  let calls = 0;
  let sink: unknown;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms * 1e6);
  let now = start;
  while (now < end) {
    for (let i = 0; i < 1000; i++) sink = run();
    calls += 1000;
    now = process.hrtime.bigint();
  }
  // Reading the last result keeps the calls' results live, so that no call can be optimized away.
  if (sink === Symbol.for('never')) throw new Error('unreachable');
  return Number(now - start) / calls;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Times every row of every group for `rounds` rounds (after one untimed warm-up round). */
export function measureFloors(groups: FloorGroup[], rounds = 7, msPerRow = 150): FloorFigure[] {
  for (const group of groups) for (const row of group.rows) timeOne(row.run, msPerRow);
  const figures: FloorFigure[] = [];
  for (const group of groups) {
    const times = group.rows.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, row] of group.rows.entries()) times[i]?.push(timeOne(row.run, msPerRow));
    }
    const reference = median(times[0] as number[]);
    group.rows.forEach((row, i) => {
      const nsPerCall = median(times[i] as number[]);
      figures.push({ group: group.title, name: row.name, nsPerCall, ratio: nsPerCall / reference });
    });
  }
  return figures;
}
