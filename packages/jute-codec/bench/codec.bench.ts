/**
 * The codec's fast path against its generic buffer-layout path, record by record: each `describe` is one
 * record, its two benches the two paths, so vitest prints how many times faster the fast one is.
 * Run: `npm run bench:micro` at the root (figures compare the paths on one machine in one run).
 */
import { bench, describe } from 'vitest';
import {
  encodeRequestFrame,
  fast,
  type JuteRecord,
  OpCode,
  type Perms,
  records,
  type Stat,
} from '../src/index';

const stat: Stat = {
  czxid: 0x100000001n,
  mzxid: 0x100000005n,
  ctime: 1_700_000_000_000n,
  mtime: 1_700_000_000_123n,
  version: 4,
  cversion: 2,
  aversion: 0,
  ephemeralOwner: 0x1000001234abcdn,
  dataLength: 100,
  numChildren: 10,
  pzxid: 0x100000003n,
};
const data = Buffer.alloc(100, 0x61);
const path = '/app/config/service-a';
const ALL: typeof Perms.ALL = 31;
const acl = [{ perms: ALL, id: { scheme: 'world', id: 'anyone' } }];
const names = (n: number) => Array.from({ length: n }, (_, i) => `child-${String(i).padStart(4, '0')}`);

const bodyOf = <T>(record: JuteRecord<T>, value: T) => {
  const out = Buffer.alloc(record.size(value));
  record.encode(value, out, 0);
  return out;
};
const replyHeader = bodyOf(records.ReplyHeader, { xid: 12345, zxid: 0x100000005n, err: 0 });
const statBytes = bodyOf(records.Stat, stat);
const getData = bodyOf(records.GetDataResponse, { data, stat });
const children10 = bodyOf(records.GetChildrenResponse, { children: names(10) });
const children1000 = bodyOf(records.GetChildrenResponse, { children: names(1000) });
const create = bodyOf(records.CreateResponse, { path: `${path}/item-0000000042` });
const create2 = bodyOf(records.Create2Response, { path: `${path}/item-0000000042`, stat });

const options = { time: 300 };
/** Keeps every result alive, so that the JIT cannot drop the work. */
export let sink: unknown;
/** One record, both paths. */
function pair(name: string, generic: () => unknown, fastPath: () => unknown): void {
  describe(name, () => {
    bench(
      'generic',
      () => {
        sink = generic();
      },
      options,
    );
    bench(
      'fast',
      () => {
        sink = fastPath();
      },
      options,
    );
  });
}

pair(
  'decode ReplyHeader',
  () => records.ReplyHeader.decode(replyHeader, 0, 16),
  () => fast.decodeReplyHeader(replyHeader, 0),
);
pair(
  'decode Stat',
  () => records.Stat.decode(statBytes, 0, 68),
  () => fast.decodeStat(statBytes, 0),
);
pair(
  'decode GetDataResponse (100 B)',
  () => records.GetDataResponse.decode(getData, 0, getData.length),
  () => fast.decodeGetDataResponse(getData, 0, getData.length),
);
pair(
  'decode ExistsResponse',
  () => records.ExistsResponse.decode(statBytes, 0, 68),
  () => fast.decodeExistsResponse(statBytes, 0),
);
pair(
  'decode CreateResponse',
  () => records.CreateResponse.decode(create, 0, create.length),
  () => fast.decodeCreateResponse(create, 0, create.length),
);
pair(
  'decode Create2Response',
  () => records.Create2Response.decode(create2, 0, create2.length),
  () => fast.decodeCreate2Response(create2, 0, create2.length),
);
pair(
  'decode GetChildrenResponse (10 names)',
  () => records.GetChildrenResponse.decode(children10, 0, children10.length),
  () => fast.decodeGetChildrenResponse(children10, 0, children10.length),
);
pair(
  'decode GetChildrenResponse (1,000 names)',
  () => records.GetChildrenResponse.decode(children1000, 0, children1000.length),
  () => fast.decodeGetChildrenResponse(children1000, 0, children1000.length),
);
pair(
  'encode getData frame',
  () => encodeRequestFrame(7, OpCode.getData, records.GetDataRequest, { path, watch: true }),
  () => fast.encodeGetDataRequestFrame(7, path, true),
);
pair(
  'encode exists frame',
  () => encodeRequestFrame(7, OpCode.exists, records.ExistsRequest, { path, watch: false }),
  () => fast.encodeExistsRequestFrame(7, path, false),
);
pair(
  'encode setData frame (100 B)',
  () => encodeRequestFrame(7, OpCode.setData, records.SetDataRequest, { path, data, version: -1 }),
  () => fast.encodeSetDataRequestFrame(7, path, data, -1),
);
pair(
  'encode create frame (100 B)',
  () => encodeRequestFrame(7, OpCode.create, records.CreateRequest, { path, data, acl, flags: 0 }),
  () => fast.encodeCreateRequestFrame(7, OpCode.create, path, data, acl, 0),
);
pair(
  'encode delete frame',
  () => encodeRequestFrame(7, OpCode.delete, records.DeleteRequest, { path, version: -1 }),
  () => fast.encodeDeleteRequestFrame(7, path, -1),
);
