// Micro-benchmark of the hot records: the generic buffer-layout path against the fast path.
// Run: npx tsx packages/jute-codec/bench/codec-bench.ts [msPerCase]
// Prints ops/s of each and the ratio fast / generic. Numbers are for comparing the two paths on one
// machine in one run, not absolute figures (the machine is shared).
import {
  encodeRequestFrame,
  fast,
  type JuteRecord,
  OpCode,
  type Perms,
  records,
  type Stat,
} from '../src/index';

const msPerCase = Number(process.argv[2] ?? 300);

const stat: Stat = {
  czxid: 0x100000001n,
  mzxid: 0x100000005n,
  ctime: 1_700_000_000_000n,
  mtime: 1_700_000_000_123n,
  version: 4,
  cversion: 2,
  aversion: 0,
  ephemeralOwner: 0x1000001234abcdn,
  dataLength: 64,
  numChildren: 10,
  pzxid: 0x100000003n,
};
const data = Buffer.alloc(64, 0x61);
const children = Array.from({ length: 10 }, (_, i) => `item-${String(i).padStart(10, '0')}`);
const path = '/app/config/service-a';
const ALL: typeof Perms.ALL = 31;
const acl = [{ perms: ALL, id: { scheme: 'world', id: 'anyone' } }];

const bodyOf = <T>(record: JuteRecord<T>, value: T) => {
  const out = Buffer.alloc(record.size(value));
  record.encode(value, out, 0);
  return out;
};
const replyHeader = bodyOf(records.ReplyHeader, { xid: 12345, zxid: 0x100000005n, err: 0 });
const statBytes = bodyOf(records.Stat, stat);
const getData = bodyOf(records.GetDataResponse, { data, stat });
const getChildren = bodyOf(records.GetChildrenResponse, { children });
const create = bodyOf(records.CreateResponse, { path: `${path}/item-0000000042` });
const create2 = bodyOf(records.Create2Response, { path: `${path}/item-0000000042`, stat });

let sink = 0;
function measure(run: () => unknown): number {
  for (let i = 0; i < 20_000; i++) run(); // warm up
  let ops = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(msPerCase) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 1000; i++) {
      if (run() !== undefined) sink++;
    }
    ops += 1000;
    elapsed = process.hrtime.bigint() - start;
  }
  return (ops * 1e9) / Number(elapsed);
}

const cases: [string, () => unknown, () => unknown][] = [
  [
    'decode ReplyHeader',
    () => records.ReplyHeader.decode(replyHeader, 0, 16),
    () => fast.decodeReplyHeader(replyHeader, 0),
  ],
  ['decode Stat', () => records.Stat.decode(statBytes, 0, 68), () => fast.decodeStat(statBytes, 0)],
  [
    'decode GetDataResponse (64 B)',
    () => records.GetDataResponse.decode(getData, 0, getData.length),
    () => fast.decodeGetDataResponse(getData, 0, getData.length),
  ],
  [
    'decode CreateResponse',
    () => records.CreateResponse.decode(create, 0, create.length),
    () => fast.decodeCreateResponse(create, 0, create.length),
  ],
  [
    'decode Create2Response',
    () => records.Create2Response.decode(create2, 0, create2.length),
    () => fast.decodeCreate2Response(create2, 0, create2.length),
  ],
  [
    'decode ExistsResponse',
    () => records.ExistsResponse.decode(statBytes, 0, 68),
    () => fast.decodeExistsResponse(statBytes, 0),
  ],
  [
    'decode GetChildrenResponse (10)',
    () => records.GetChildrenResponse.decode(getChildren, 0, getChildren.length),
    () => fast.decodeGetChildrenResponse(getChildren, 0, getChildren.length),
  ],
  [
    'encode getData frame',
    () => encodeRequestFrame(7, OpCode.getData, records.GetDataRequest, { path, watch: true }),
    () => fast.encodeGetDataRequestFrame(7, path, true),
  ],
  [
    'encode exists frame',
    () => encodeRequestFrame(7, OpCode.exists, records.ExistsRequest, { path, watch: false }),
    () => fast.encodeExistsRequestFrame(7, path, false),
  ],
  [
    'encode setData frame (64 B)',
    () => encodeRequestFrame(7, OpCode.setData, records.SetDataRequest, { path, data, version: -1 }),
    () => fast.encodeSetDataRequestFrame(7, path, data, -1),
  ],
  [
    'encode create frame (64 B)',
    () => encodeRequestFrame(7, OpCode.create, records.CreateRequest, { path, data, acl, flags: 0 }),
    () => fast.encodeCreateRequestFrame(7, OpCode.create, path, data, acl, 0),
  ],
  [
    'encode delete frame',
    () => encodeRequestFrame(7, OpCode.delete, records.DeleteRequest, { path, version: -1 }),
    () => fast.encodeDeleteRequestFrame(7, path, -1),
  ],
];

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
console.log(`jute-codec micro-benchmark, ${msPerCase} ms per measurement, node ${process.version}`);
console.log(`${'case'.padEnd(34)}${'generic ops/s'.padStart(14)}${'fast ops/s'.padStart(14)}   fast/generic`);
for (const [name, generic, fastRun] of cases) {
  const g = measure(generic);
  const f = measure(fastRun);
  console.log(`${name.padEnd(34)}  ${fmt(g)}  ${fmt(f)}   ${(f / g).toFixed(2)}x`);
}
if (sink < 0) console.log(sink);
