/**
 * The raw limit: every request frame is encoded before the clock starts and written as a slice of one ring
 * buffer; replies are only counted (raw-wire.ts). It shows what the server and loopback allow and what a
 * client costs that does (almost) no work: the ceiling the others are compared with. `raw-paced` also stops
 * reading for ~1 ms after each read while 256 or more are in flight, as our client's read pacing does.
 */
import { runOpenLoopCell } from '../measure/open-loop.js';
import { runLoopInTurns, type TurnGate } from '../measure/turns.js';
import { runSessions } from '../scenarios/session.js';
import { runWatch, type WatchDriver } from '../scenarios/watch.js';
import type { CellResult, CellSpec, ThroughputOp } from '../types.js';
import { type Contender, clientKinds } from './contender.js';
import { nodeWorkerCommand } from './driver-protocol.js';
import {
  closeRawSession,
  createFrame,
  deleteFrame,
  multiSetDataFrame,
  openRawSession,
  pathWatchFrame,
  RawOpCode,
  READ_BUFFER_BYTES,
  ReplyCounter,
  setDataFrame,
} from './raw-wire.js';

/** The frames a cell cycles through, and how many replies make one operation. */
function ring(spec: CellSpec): { frames: Buffer[]; repliesPerOp: number } {
  const { paths, inFlight } = spec;
  const data = Buffer.alloc(spec.dataSize, 0x61);
  if (spec.op === 'createDelete') {
    // one session runs its requests in order, so create p, delete p, create p ... is valid in any window
    const frames = Array.from({ length: inFlight }, (_, slot) => {
      const path = `${paths.scratch}/${spec.cellId}-${slot}`;
      return [createFrame(2 * slot + 1, path, data), deleteFrame(2 * slot + 2, path)];
    });
    return { frames: frames.flat(), repliesPerOp: 2 };
  }
  const make = {
    getData: (xid: number) => pathWatchFrame(xid, RawOpCode.getData, paths.data),
    exists: (xid: number) => pathWatchFrame(xid, RawOpCode.exists, paths.data),
    getChildren: (xid: number) => pathWatchFrame(xid, RawOpCode.getChildren2, paths.children),
    setData: (xid: number) => setDataFrame(xid, paths.data, data),
    multi: (xid: number) => multiSetDataFrame(xid, paths.multi, data),
  }[spec.op as Exclude<ThroughputOp, 'createDelete'>];
  return {
    frames: Array.from({ length: Math.max(2 * inFlight, 64) }, (_, i) => make(i + 1)),
    repliesPerOp: 1,
  };
}

const PACE_MIN_IN_FLIGHT = 256;

/** N frames in flight: each chunk of replies is answered at once by one write of as many new frames. */
async function runThroughput(spec: CellSpec, paced: boolean): Promise<CellResult> {
  const { frames, repliesPerOp } = ring(spec);
  const buffer = Buffer.concat(frames);
  const offsets = [0];
  for (const frame of frames) offsets.push((offsets.at(-1) as number) + frame.length);
  let position = 0;
  const { socket, rest } = await openRawSession(spec.connectString, paced);
  const send = (k: number) => {
    while (k > 0) {
      const n = Math.min(k, frames.length - position);
      socket.write(buffer.subarray(offsets[position], offsets[position + n]));
      position = (position + n) % frames.length;
      k -= n;
    }
  };
  let replies = 0;
  let errors = 0;
  let sent = 0;
  let stopped = true;
  let gate: TurnGate | undefined;
  const counter = new ReplyCounter((_xid, err) => {
    replies++;
    if (err !== 0) errors++;
  });
  const resume = () => socket.resume();
  const onChunk = (chunk: Buffer) => {
    const before = replies;
    counter.push(chunk);
    if (!stopped && gate !== undefined && replies > before && !gate.note(replies, errors)) stopped = true;
    if (!stopped && replies > before) {
      send(replies - before);
      sent += replies - before;
    }
    // a read that filled the buffer is followed at once (more is waiting), as in our client
    if (paced && !stopped && sent - replies >= PACE_MIN_IN_FLIGHT && chunk.length < READ_BUFFER_BYTES) {
      socket.pause();
      setTimeout(resume, 1);
    }
  };
  socket.on('data', onChunk);
  if (rest.length > 0) onChunk(rest);
  const result = await runLoopInTurns(
    {
      start(turnGate) {
        stopped = false;
        gate = turnGate;
        send(spec.inFlight);
        sent += spec.inFlight;
      },
      stop() {
        stopped = true;
        socket.resume(); // a paused socket would never see the last replies
      },
      inFlight: () => sent - replies, // in replies: a createDelete op is two
      completed: () => replies,
      errors: () => errors,
    },
    spec.turns,
  );
  socket.off('data', onChunk);
  await closeRawSession(socket);
  if (!result.ok) return result;
  return {
    ...result,
    ops: Math.floor(result.ops / repliesPerOp),
    ...(result.turnRates && { turnRates: result.turnRates.map((r) => r / repliesPerOp) }),
    ...(result.turnCpuUsPerOp && { turnCpuUsPerOp: result.turnCpuUsPerOp.map((c) => c * repliesPerOp) }),
  };
}

/** getData at a rate on a raw session; replies come in order, so completions wait in a FIFO. */
async function runLatency(spec: CellSpec): Promise<CellResult> {
  const frame = pathWatchFrame(1, RawOpCode.getData, spec.paths.data);
  const { socket } = await openRawSession(spec.connectString);
  const waiting: ((ok: boolean) => void)[] = [];
  let head = 0;
  const counter = new ReplyCounter((_xid, err) => {
    const done = waiting[head++];
    if (head === waiting.length) waiting.length = head = 0; // all in: the FIFO starts afresh
    done?.(err === 0);
  });
  socket.on('data', (chunk: Buffer) => counter.push(chunk));
  const result = await runOpenLoopCell(
    {
      send(done) {
        waiting.push(done);
        socket.write(frame);
      },
      // one tick's requests in one write, as a client that batches its writes does
      batch(sendAll) {
        socket.cork();
        sendAll();
        socket.uncork();
      },
    },
    spec.rate ?? 0,
    spec.turns,
  );
  await closeRawSession(socket);
  return result;
}

/**
 * A raw session as the watch scenario's driver: a getData with a watch answers `ok` at its reply and
 * `onEvent` at the event frame (xid -1). A cell uses one path: each frame is encoded once, on first use.
 */
async function rawWatchSession(connectString: string): Promise<WatchDriver> {
  const { socket } = await openRawSession(connectString);
  let watchFrame: Buffer | undefined;
  let changeFrame: Buffer | undefined;
  let onReply: (xid: number) => void = () => {};
  const counter = new ReplyCounter((xid) => onReply(xid));
  socket.on('data', (chunk: Buffer) => counter.push(chunk));
  return {
    watchData(path, onEvent, ok) {
      onReply = (xid) => (xid === -1 ? onEvent() : ok());
      socket.write((watchFrame ??= pathWatchFrame(1, RawOpCode.getData, path, true)));
    },
    setData(path, data, ok) {
      onReply = ok;
      socket.write((changeFrame ??= setDataFrame(1, path, data)));
    },
    close: () => closeRawSession(socket),
  };
}

function runCell(spec: CellSpec): Promise<CellResult> {
  switch (spec.kind) {
    case 'throughput':
      return runThroughput(spec, spec.contender === 'raw-paced');
    case 'latency':
      return runLatency(spec);
    case 'session':
      return runSessions(async () => {
        const { socket } = await openRawSession(spec.connectString);
        return () => closeRawSession(socket);
      }, spec);
    case 'watch':
      return runWatch(rawWatchSession, spec);
    default:
      return Promise.resolve({ ok: false, unsupported: true, error: `raw has no ${spec.kind} cell` });
  }
}

export const raw: Contender = {
  id: 'raw',
  label: 'raw limit',
  short: 'raw',
  color: '#7f7f7f',
  supports: clientKinds,
  runCell,
  prepare: async () => ({
    ok: true,
    detail: 'pre-encoded frames on a net.Socket, replies counted, not decoded',
    command: nodeWorkerCommand,
  }),
};

export const rawPaced: Contender = {
  id: 'raw-paced',
  label: 'raw limit, paced reads',
  short: 'raw-paced',
  color: '#b0b0b0',
  // paced reads differ from greedy ones only where many requests are in flight
  supports: (kind) => kind === 'throughput',
  runCell,
  prepare: async () => ({
    ok: true,
    detail: 'the raw limit, reading at most once per ms with 256 or more in flight (as ours paces reads)',
    command: nodeWorkerCommand,
  }),
};
