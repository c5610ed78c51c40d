/**
 * The request pipeline's own cost per request: submit (the request object, its promise, its place in the
 * queue), the coalesced flush, and the settle step of its reply (matching the FIFO head, decoding, the watch
 * the decoder declares, resolving), at one request and at 1,000 in flight, for getData and for getData with
 * a watch (the settle step registers it). Frames and replies are made once, outside the measured loop; the
 * connection is a sink that drops the frames: what is measured is the pipeline, not the codec, the socket
 * or the server (requests.bench.ts and apps/bench measure those).
 * Run: `npm run bench:micro`.
 */
import { Buffer } from 'node:buffer';
import { records } from '@zkwire/jute-codec';
import { bench, describe } from 'vitest';
import { RequestPipeline } from '../src/pipeline/pipeline.js';
import { GateVerdict } from '../src/pipeline/version-gate.js';
import { encodeGetData, getDataReply } from '../src/protocol/get-data.js';
import type { SettleContext } from '../src/protocol/watch-removal.js';
import { WatchTables } from '../src/protocol/watches.js';
import type { Connection } from '../src/transport/connection.js';
import { Chroot } from '../src/util/paths.js';
import type { Watcher } from '../src/util/types.js';
import { benchPath, benchStat } from './fixtures.js';

const path = benchPath;
const stat = benchStat;
const options = { time: 500 };

/**
 * A getData reply as the pipeline gets it (the frame without its length prefix). The pipeline matches a
 * reply by the xid it is handed (the frame reader's), so one payload answers every request.
 */
function getDataReplyPayload(): Buffer {
  const header = { xid: 1, zxid: 0x100000005n, err: 0 };
  const body = { data: Buffer.alloc(100, 0x61), stat };
  const out = Buffer.alloc(records.ReplyHeader.size(header) + records.GetDataResponse.size(body));
  records.GetDataResponse.encode(body, out, records.ReplyHeader.encode(header, out, 0));
  return out;
}
const reply = getDataReplyPayload();
/** The frames are dropped unread, so every request can carry this one. */
const frame = encodeGetData(1, path, false);

/** A pipeline on a connection that takes every frame and drops it. */
function pipelineOnSink(watches: WatchTables): RequestPipeline {
  const context: SettleContext = {
    chroot: new Chroot(undefined),
    watches,
    serverVersion: undefined,
    dispatchInOrder: () => {},
  };
  const pipeline = new RequestPipeline(context, 0, { decide: () => GateVerdict.send });
  const sink = { waitingDrain: false, writeFrames: () => true, write: () => true };
  pipeline.attach(sink as unknown as Connection);
  return pipeline;
}

/**
 * Submits `depth` getData requests (with `watcher` when given), flushes them, then answers each in order and
 * waits for every promise, as a client at that depth does.
 */
async function round(pipeline: RequestPipeline, depth: number, watcher: Watcher | undefined): Promise<void> {
  const promises: Promise<unknown>[] = new Array(depth);
  const xids: number[] = new Array(depth);
  for (let i = 0; i < depth; i++) {
    const xid = pipeline.nextXid();
    xids[i] = xid;
    promises[i] = pipeline.submit(getDataReply, xid, frame, path, watcher, undefined);
  }
  pipeline.flush();
  for (const xid of xids) pipeline.handleReply(reply, xid);
  await Promise.all(promises);
}

for (const depth of [1, 1000]) {
  describe(`submit + settle, ${depth} in flight (per round of ${depth})`, () => {
    const plain = pipelineOnSink(new WatchTables());
    bench('getData', () => round(plain, depth, undefined), options);

    const watches = new WatchTables();
    const watched = pipelineOnSink(watches);
    const watcher: Watcher = () => {};
    bench(
      'getData with a watch (registered in the settle step)',
      async () => {
        await round(watched, depth, watcher);
        watches.clear();
      },
      options,
    );
  });
}
