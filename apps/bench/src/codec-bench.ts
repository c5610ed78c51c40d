/**
 * Codec micro-benchmarks: the generic buffer-layout path of @zkwire/jute-codec against its fast path on the
 * hot records. Run in the orchestrating process, generic and fast alternating, once per round.
 */
import { encode, encodeRequestFrame, fast, OpCode, records } from '@zkwire/jute-codec';
import { type Spread, spread } from './stats.js';

/** One codec case: how many operations per second each path does. */
export interface CodecCase {
  name: string;
  generic: number[];
  fast: number[];
}

/** The summary the report shows. */
export interface CodecSummary {
  name: string;
  generic: Spread;
  fast: Spread;
  /** median over rounds of fast / generic */
  speedup: Spread;
}

const stat = {
  czxid: 1n,
  mzxid: 2n,
  ctime: 1_700_000_000_000n,
  mtime: 1_700_000_000_001n,
  version: 3,
  cversion: 4,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: 100,
  numChildren: 1000,
  pzxid: 5n,
};

function fixtures() {
  const header = encode(records.ReplyHeader, { xid: 7, zxid: 9n, err: 0 });
  const getData = Buffer.concat([
    header,
    encode(records.GetDataResponse, { data: Buffer.alloc(100, 0x61), stat }),
  ]);
  const children = Array.from({ length: 1000 }, (_, i) => `child-${String(i).padStart(4, '0')}`);
  const getChildren = Buffer.concat([header, encode(records.GetChildrenResponse, { children })]);
  const create2 = Buffer.concat([
    header,
    encode(records.Create2Response, { path: '/zkwire-bench/queue/item-0000000042', stat }),
  ]);
  return { getData, getChildren, create2 };
}

type Pair = { name: string; generic: () => unknown; fast: () => unknown };

function pairs(): Pair[] {
  const f = fixtures();
  const path = '/zkwire-bench/some/data-node';
  return [
    {
      name: 'decode getData reply (header + 100 B + Stat)',
      generic: () => {
        records.ReplyHeader.decode(f.getData, 0, 16);
        return records.GetDataResponse.decode(f.getData, 16, f.getData.length);
      },
      fast: () => {
        fast.decodeReplyHeader(f.getData, 0);
        return fast.decodeGetDataResponse(f.getData, 16, f.getData.length);
      },
    },
    {
      name: 'decode getChildren reply (1,000 names)',
      generic: () => records.GetChildrenResponse.decode(f.getChildren, 16, f.getChildren.length),
      fast: () => fast.decodeGetChildrenResponse(f.getChildren, 16, f.getChildren.length),
    },
    {
      name: 'decode create2 reply (path + Stat)',
      generic: () => records.Create2Response.decode(f.create2, 16, f.create2.length),
      fast: () => fast.decodeCreate2Response(f.create2, 16, f.create2.length),
    },
    {
      name: 'encode getData request frame',
      generic: () => encodeRequestFrame(1, OpCode.getData, records.GetDataRequest, { path, watch: false }),
      fast: () => fast.encodeGetDataRequestFrame(1, path, false),
    },
  ];
}

let sink: unknown;

function opsPerSec(fn: () => unknown, ms: number): number {
  const end = performance.now() + ms;
  let n = 0;
  const t0 = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 200; i++) sink = fn();
    n += 200;
  }
  return (n * 1000) / (performance.now() - t0);
}

/** Medians over rounds; the speedup is taken within each round first. */
export function summarizeCodec(cases: readonly CodecCase[]): CodecSummary[] {
  return cases.flatMap((c) => {
    const generic = spread(c.generic);
    const fastSpread = spread(c.fast);
    const speedup = spread(c.fast.map((f, i) => f / (c.generic[i] ?? f)));
    return generic && fastSpread && speedup ? [{ name: c.name, generic, fast: fastSpread, speedup }] : [];
  });
}

/** Measures every pair once (warm-up, then generic and fast alternately), adding to `into`. */
export function runCodecRound(into: CodecCase[], ms: number): void {
  for (const pair of pairs()) {
    let entry = into.find((c) => c.name === pair.name);
    if (!entry) {
      entry = { name: pair.name, generic: [], fast: [] };
      into.push(entry);
    }
    opsPerSec(pair.generic, ms / 4);
    opsPerSec(pair.fast, ms / 4);
    entry.generic.push(opsPerSec(pair.generic, ms / 2));
    entry.fast.push(opsPerSec(pair.fast, ms / 2));
  }
  if (sink === Symbol.for('never')) process.stderr.write('');
}
