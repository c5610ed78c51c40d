/**
 * The client's hot request and reply pieces, one bench each: encoding the frames of getData, setData and a
 * multi of 10 setData (the bench app's multi case), and decoding the replies that carry a Stat. Sources are
 * imported, so nothing internal is published for this.
 * Run: `npm run bench:micro` (figures compare pieces on one machine in one run, never across machines).
 */
import { Buffer } from 'node:buffer';
import { type JuteRecord, records } from '@zkwire/jute-codec';
import { bench, describe } from 'vitest';
import { encodeGetData, getDataReply } from '../src/protocol/get-data.js';
import { emptyCheckedMulti, encodeMulti, multiReply, setCheckedOp } from '../src/protocol/multi.js';
import { multiContext } from '../src/protocol/multi-context.js';
import { pathBytes } from '../src/protocol/multi-parts.js';
import { PendingRequest } from '../src/protocol/pending.js';
import { encodeSetData, setDataReply } from '../src/protocol/set-data.js';
import type { SettleContext } from '../src/protocol/watch-removal.js';
import { WatchTables } from '../src/protocol/watches.js';
import { Chroot } from '../src/util/paths.js';
import { benchPath, benchStat } from './fixtures.js';

const path = benchPath;
const data = Buffer.alloc(100, 0x61);
const stat = benchStat;
const options = { time: 300 };
/** Keeps every result alive, so that the JIT cannot drop the work. */
export let sink: unknown;

const bytesOf = <T>(record: JuteRecord<T>, value: T) => {
  const out = Buffer.alloc(record.size(value));
  record.encode(value, out, 0);
  return out;
};
/** A reply as the pipeline hands it to a decoder: the header (xid, zxid, err), then the body at 16. */
const reply = (body: Buffer) =>
  Buffer.concat([bytesOf(records.ReplyHeader, { xid: 7, zxid: 0x100000005n, err: 0 }), body]);

const MULTI_OPS = 10;
const multiPaths = Array.from({ length: MULTI_OPS }, (_, i) => `/bench/multi-${i}`);
const multiPathBytes = multiPaths.map(pathBytes);
/** A checked multi of 10 setData, as the client checks one (client/multi-calls.ts). */
function checkedSetDataMulti() {
  const checked = emptyCheckedMulti(MULTI_OPS);
  for (let i = 0; i < MULTI_OPS; i++) {
    setCheckedOp(checked, i, 'setData', multiPaths[i]!, multiPathBytes[i]!, data, -1);
  }
  return checked;
}
const multiChecked = checkedSetDataMulti();
/** Each result: MultiHeader { int type = setData (5); boolean done; int err } then the Stat; then the end. */
function multiReplyBody(): Buffer {
  const header = (type: number, done: boolean, err: number) => {
    const out = Buffer.alloc(9);
    out.writeInt32BE(type, 0);
    out[4] = done ? 1 : 0;
    out.writeInt32BE(err, 5);
    return out;
  };
  const parts: Buffer[] = [];
  for (let i = 0; i < MULTI_OPS; i++) parts.push(header(5, false, 0), bytesOf(records.Stat, stat));
  parts.push(header(-1, true, -1));
  return Buffer.concat(parts);
}

const context: SettleContext = {
  chroot: new Chroot(undefined),
  watches: new WatchTables(),
  serverVersion: undefined,
  dispatchInOrder: () => {},
};
const noop = () => {};
const requestOf = (decoder: PendingRequest['decoder'], requestContext: unknown) =>
  new PendingRequest(7, Buffer.alloc(0), decoder, path, requestContext, noop, noop);

describe('encode a request frame', () => {
  bench(
    'getData',
    () => {
      sink = encodeGetData(7, path, false);
    },
    options,
  );
  bench(
    'setData (100 B)',
    () => {
      sink = encodeSetData(7, path, data, -1);
    },
    options,
  );
  bench(
    'multi of 10 setData (100 B each)',
    () => {
      sink = encodeMulti(7, multiChecked);
    },
    options,
  );
});

describe('decode a reply with a Stat', () => {
  const getData = reply(bytesOf(records.GetDataResponse, { data, stat }));
  const getDataRequest = requestOf(getDataReply as PendingRequest['decoder'], undefined);
  bench(
    'getData (100 B + Stat)',
    () => {
      sink = getDataReply.decode(context, getDataRequest as never, 0, getData, 16);
    },
    options,
  );

  const setData = reply(bytesOf(records.SetDataResponse, { stat }));
  const setDataRequest = requestOf(setDataReply as PendingRequest['decoder'], undefined);
  bench(
    'setData (Stat)',
    () => {
      sink = setDataReply.decode(context, setDataRequest as never, 0, setData, 16);
    },
    options,
  );

  const multi = reply(multiReplyBody());
  const multiRequest = requestOf(multiReply as PendingRequest['decoder'], multiContext(multiChecked));
  bench(
    'multi of 10 setData (10 Stats)',
    () => {
      sink = multiReply.decode(context, multiRequest as never, 0, multi, 16);
    },
    options,
  );
});
