/**
 * The raw limit: every request frame is encoded before the clock starts, written as a slice of one ring
 * buffer, and its reply only counted. It shows what the server and loopback allow, and what a client costs
 * when it does (almost) no work: the ceiling the other contenders are compared with.
 */
import type { CellResult, CellSpec } from '../types.js';
import { LatencyRecorder } from './latency-recorder.js';
import { runOpenLoopCell } from './open-loop.js';
import type { Reply } from './open-loop-requests.js';
import {
  closeRawSession,
  firstHost,
  openRawSession,
  RAW_READ_BUFFER_BYTES,
  ReplyCounter,
} from './raw-connection.js';
import {
  createFrame,
  deleteFrame,
  multiSetDataFrame,
  pathWatchFrame,
  RawOpCode,
  setDataFrame,
} from './raw-frames.js';
import { CLOSING_AT_ONCE } from './run-session.js';
import type { TurnGate } from './turn-gate.js';
import { runLoopCell, type TurnLoop } from './turns.js';
import { CellPhases, type WindowFigures } from './window.js';

/** The pre-encoded frames one cell cycles through, and how many replies make one operation. */
function buildRing(spec: CellSpec): { frames: Buffer[]; repliesPerOp: number } {
  const { paths } = spec;
  const data = Buffer.alloc(spec.dataSize, 0x61);
  const size = Math.max(2 * spec.inFlight, 64);
  const each = (make: (xid: number) => Buffer) => Array.from({ length: size }, (_, i) => make(i + 1));
  switch (spec.op) {
    case 'getData':
      return { frames: each((xid) => pathWatchFrame(xid, RawOpCode.getData, paths.data)), repliesPerOp: 1 };
    case 'exists':
      return { frames: each((xid) => pathWatchFrame(xid, RawOpCode.exists, paths.data)), repliesPerOp: 1 };
    case 'getChildren':
      return {
        frames: each((xid) => pathWatchFrame(xid, RawOpCode.getChildren, paths.children)),
        repliesPerOp: 1,
      };
    case 'setData':
      return { frames: each((xid) => setDataFrame(xid, paths.data, data)), repliesPerOp: 1 };
    case 'multi':
      return { frames: each((xid) => multiSetDataFrame(xid, paths.multi, data)), repliesPerOp: 1 };
    case 'createDelete': {
      // One session runs its requests in order, so create p, delete p, create p... is valid in any window.
      const frames: Buffer[] = [];
      for (let slot = 0; slot < spec.inFlight; slot++) {
        const path = `${paths.scratch}/${spec.cellId}-${slot}`;
        frames.push(createFrame(2 * slot + 1, path, data), deleteFrame(2 * slot + 2, path));
      }
      return { frames, repliesPerOp: 2 };
    }
    default:
      throw new Error(`raw: no frames for ${String(spec.op)}`);
  }
}

/** With this many in flight, the paced raw limit waits {@link PACE_MS} after each read. */
const PACE_MIN_IN_FLIGHT = 256;
const PACE_MS = 1;

/**
 * N frames in flight: each chunk of replies is answered by one write of as many new frames. With
 * `pacedReads` (the `raw-paced` contender) the socket also stops reading for about a millisecond after each
 * read while at least 256 requests are in flight, as our client's read pacing does, so that one read takes
 * many replies and one write sends many frames: what the server allows when fed in batches.
 */
export async function runRawThroughput(
  spec: CellSpec,
  options: { pacedReads?: boolean } = {},
): Promise<CellResult> {
  const paced = options.pacedReads === true;
  const { frames, repliesPerOp } = buildRing(spec);
  const ring = Buffer.concat(frames);
  const offsets = [0];
  for (const frame of frames) offsets.push((offsets.at(-1) as number) + frame.length);
  const count = frames.length;
  let position = 0;
  const { host, port } = firstHost(spec.connectString);
  const { socket, rest } = await openRawSession(host, port, { readByCallback: paced });
  const resume = () => socket.resume();

  const send = (k: number) => {
    while (k > 0) {
      const n = Math.min(k, count - position);
      socket.write(ring.subarray(offsets[position], offsets[position + n]));
      position = (position + n) % count;
      k -= n;
    }
  };

  let replies = 0;
  let errors = 0;
  let sent = 0;
  let stopped = true;
  const counter = new ReplyCounter((_xid, err) => {
    replies++;
    if (err !== 0) errors++;
  });
  // Each chunk of replies is answered at once by as many new frames: one write (two where the ring wraps).
  let gate: TurnGate | undefined;
  const onChunk = (chunk: Buffer) => {
    const before = replies;
    counter.push(chunk);
    if (!stopped && gate !== undefined && replies > before && !gate.note(replies, errors)) stopped = true;
    if (!stopped && replies > before) {
      send(replies - before);
      sent += replies - before;
    }
    // A read that filled the buffer is followed at once (more is waiting), as in our client.
    if (paced && !stopped && sent - replies >= PACE_MIN_IN_FLIGHT && chunk.length < RAW_READ_BUFFER_BYTES) {
      socket.pause();
      setTimeout(resume, PACE_MS);
    }
  };
  socket.on('data', onChunk);
  if (rest.length > 0) onChunk(rest);
  const loop: TurnLoop = {
    start(turnGate) {
      stopped = false;
      gate = turnGate;
      send(spec.inFlight);
      sent += spec.inFlight;
    },
    stop() {
      stopped = true;
      // A paused socket would never see the last replies.
      socket.resume();
    },
    // Counted in replies: a createDelete op is two of them.
    inFlight: () => sent - replies,
    completed: () => replies,
    errors: () => errors,
  };
  const run = await runLoopCell(loop, spec);
  socket.off('data', onChunk);
  await closeRawSession(socket);
  if (!run.ok) return run;
  const measured: WindowFigures & { turnRates?: number[]; turnCpuUsPerOp?: number[] } = run.figures;
  const perOp = measured.turnRates
    ? {
        turnRates: measured.turnRates.map((r) => r / repliesPerOp),
        turnCpuUsPerOp: measured.turnCpuUsPerOp?.map((cpu) => cpu * repliesPerOp),
      }
    : {};
  return {
    ok: true,
    ...measured,
    ops: Math.floor(measured.ops / repliesPerOp),
    ...perOp,
  };
}

/**
 * Fixed-rate getData on a raw session (open-loop.ts paces, times and counts it, in turns or not). Replies
 * come back in order, so each request's completion waits in a FIFO until its reply is counted.
 */
export async function runRawLatency(spec: CellSpec): Promise<CellResult> {
  const frame = pathWatchFrame(1, RawOpCode.getData, spec.paths.data);
  const { host, port } = firstHost(spec.connectString);
  const { socket } = await openRawSession(host, port);
  const waiting: (Reply | undefined)[] = [];
  let head = 0;
  const counter = new ReplyCounter((_xid, err) => {
    const done = waiting[head];
    waiting[head++] = undefined;
    // every reply in (between turns, or a quiet moment): the FIFO starts afresh instead of growing all cell
    if (head === waiting.length) waiting.length = head = 0;
    done?.(err === 0);
  });
  socket.on('data', (chunk: Buffer) => counter.push(chunk));
  const result = await runOpenLoopCell(
    {
      send(done) {
        waiting.push(done);
        socket.write(frame);
      },
      // The requests due in one tick leave in one write (corked), as a client that batches its writes does:
      // dozens of write calls per tick would delay the last of them and cost the raw limit CPU it need not.
      batch(sendAll) {
        socket.cork();
        sendAll();
        socket.uncork();
      },
    },
    spec,
  );
  await closeRawSession(socket);
  return result;
}

/** Handshakes back to back, each timed; closeSession runs in the background, as in run-session.ts. */
export async function runRawSession(spec: CellSpec): Promise<CellResult> {
  const { host, port } = firstHost(spec.connectString);
  const recorder = new LatencyRecorder();
  const closing = new Set<Promise<void>>();
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  while (phases.running) {
    phases.openWhenWarm(completed, 0);
    const t0 = process.hrtime.bigint();
    const { socket } = await openRawSession(host, port);
    recorder.recordSince(t0);
    completed++;
    const closed: Promise<void> = closeRawSession(socket)
      .catch(() => {})
      .finally(() => closing.delete(closed));
    closing.add(closed);
    if (closing.size >= CLOSING_AT_ONCE) await Promise.race(closing);
  }
  const measured = phases.close(completed, 0);
  await Promise.all(closing);
  return { ok: true, ...measured, latency: recorder.summary() };
}

/** getData with watch=true on session A, setData from session B, time until A sees the xid -1 frame. */
export async function runRawWatch(spec: CellSpec): Promise<CellResult> {
  const { host, port } = firstHost(spec.connectString);
  const a = await openRawSession(host, port);
  const b = await openRawSession(host, port);
  const watchFrame = pathWatchFrame(1, RawOpCode.getData, spec.paths.watch, true);
  const changeFrame = setDataFrame(1, spec.paths.watch, Buffer.alloc(spec.dataSize, 0x62));
  let onA: (xid: number) => void = () => {};
  let onB: () => void = () => {};
  const counterA = new ReplyCounter((xid) => onA(xid));
  const counterB = new ReplyCounter(() => onB());
  a.socket.on('data', (chunk: Buffer) => counterA.push(chunk));
  b.socket.on('data', (chunk: Buffer) => counterB.push(chunk));
  const recorder = new LatencyRecorder();
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  while (phases.running) {
    phases.openWhenWarm(completed, 0);
    let t0 = 0n;
    let event: () => void = () => {};
    const eventSeen = new Promise<void>((resolve) => {
      event = () => {
        recorder.recordSince(t0);
        resolve();
      };
    });
    await new Promise<void>((resolve) => {
      onA = (xid) => (xid === -1 ? event() : resolve());
      a.socket.write(watchFrame);
    });
    t0 = process.hrtime.bigint();
    const changed = new Promise<void>((resolve) => {
      onB = resolve;
    });
    b.socket.write(changeFrame);
    await Promise.all([eventSeen, changed]);
    completed++;
  }
  const result = phases.close(completed, 0);
  await Promise.all([closeRawSession(a.socket), closeRawSession(b.socket)]);
  return { ok: true, ...result, latency: recorder.summary() };
}
