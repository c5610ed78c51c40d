/**
 * An open loop of getData at a fixed rate, in turns (the latency cells). Request k of a turn is due at the
 * turn's start + k / rate, and its latency runs from that due time, not from when it went out, so a client
 * that stalls pays for every request it delayed (no coordinated omission). A request is recorded when it was
 * due between the end of the turn's ramp and the turn's end, whenever its reply comes; nothing is sent that
 * was not due inside the turn. One shape serves a client driver and the raw limit's socket.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import type { CellResult, TurnSchedule } from '../types.js';
import { readyForTurns, runTurns, type TurnGate, type TurnLoop, turnsResult } from './turns.js';
import { LatencyRecorder, requestsDue, sleep, untilIdle } from './window.js';

/** Where an open loop sends its getData. */
export interface OpenLoopTarget {
  /** sends one getData; `done(ok)` once its reply is in */
  send(done: (ok: boolean) => void): void;
  /** sends one tick's requests together (the raw limit corks them into one write) */
  batch?(sendAll: () => void): void;
}

/** A turn's recorders: latency from the due time, and the pacer's lag behind it (for the note). */
class Recorders {
  readonly latency = new LatencyRecorder();
  readonly sendLag = new LatencyRecorder();
  constructor() {
    this.latency.recording = this.sendLag.recording = true;
  }
  add(other: Recorders): void {
    this.latency.add(other.latency);
    this.sendLag.add(other.sendLag);
  }
}

const hrtimeAt = (at: number) => process.hrtime.bigint() - BigInt(Math.round((performance.now() - at) * 1e6));

class OpenLoop implements TurnLoop {
  completed_ = 0;
  errors_ = 0;
  outstanding = 0;
  readonly measured = new Recorders();
  /** each turn's p99, the warm-up turn first, 0 for a turn not counted */
  readonly turnP99s: number[] = [];
  private turn = new Recorders();
  private stopSending: (() => void) | undefined;

  constructor(
    private readonly target: OpenLoopTarget,
    private readonly rate: number,
  ) {}

  /**
   * Paces from `startAt` (performance.now()) until `endAt`, none due later. With a gate, a request due at
   * or after the gate's open is recorded, and each reply is reported to the gate.
   */
  run(rate: number, startAt: number, endAt: number, gate?: TurnGate): void {
    const startNs = hrtimeAt(startAt);
    const into = this.turn;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const sendOne = () => {
      sent++;
      const dueNs = startNs + BigInt(Math.round((sent * 1e9) / rate));
      const record = gate !== undefined && startAt + (sent * 1000) / rate >= gate.openAt ? into : undefined;
      record?.sendLag.record(dueNs);
      this.outstanding++;
      this.target.send((ok) => {
        this.outstanding--;
        if (ok) {
          this.completed_++;
          record?.latency.record(dueNs);
        } else this.errors_++;
        gate?.note(this.completed_, this.errors_);
      });
    };
    const sendDue = (now: number) => {
      const count = requestsDue(Math.min(now, endAt) - startAt, rate) - sent;
      if (count <= 0) return;
      const all = () => {
        for (let k = 0; k < count; k++) sendOne();
      };
      if (this.target.batch) this.target.batch(all);
      else all();
    };
    const tick = () => {
      const now = performance.now();
      sendDue(now);
      if (now < endAt) timer = setTimeout(tick, 1);
    };
    this.stopSending = () => {
      clearTimeout(timer);
      // a tick held up past the end sends what fell due inside the turn now, timed from when it was due
      sendDue(endAt);
    };
    tick();
  }

  start(gate?: TurnGate, turnStartAt?: number): void {
    if (!gate || turnStartAt === undefined) throw new Error('an open loop runs in turns only');
    this.run(this.rate, turnStartAt, gate.closeAt, gate);
  }

  stop(): void {
    this.stopSending?.();
    this.stopSending = undefined;
  }

  endTurn(counted: boolean): void {
    if (counted) this.measured.add(this.turn);
    this.turnP99s.push(counted ? this.turn.latency.summary().p99 : 0);
    this.turn = new Recorders();
  }

  inFlight = () => this.outstanding;
  completed = () => this.completed_;
  errors = () => this.errors_;
}

/**
 * An open-loop cell: a warm-up alongside the other contenders at this one's share of the rate (so that the
 * server sees the case's rate, not several times it), then the turns.
 */
export async function runOpenLoopCell(
  target: OpenLoopTarget,
  rate: number,
  turns: TurnSchedule | undefined,
): Promise<CellResult> {
  if (!turns) return { ok: false, error: 'an open loop runs in turns only' };
  const loop = new OpenLoop(target, rate);
  if (turns.warmUpMs > 0) {
    const now = performance.now();
    loop.run(rate / turns.of, now, now + turns.warmUpMs);
    await sleep(turns.warmUpMs);
    loop.stop();
    await untilIdle(loop.inFlight, 5);
  }
  const gcPauses = watchGcPauses();
  const result = turnsResult(await runTurns(loop, turns, await readyForTurns()), turns);
  const gc = gcPauses();
  if (!result.ok) return result;
  const lag = loop.measured.sendLag.summary();
  return {
    ...result,
    latency: loop.measured.latency.summary(),
    turnP99Us: loop.turnP99s.slice(1),
    note: `${rate} req/s; send lag behind the due time p50 ${lag.p50} µs, p99 ${lag.p99} µs; ${gc}`,
  };
}

/**
 * The process's GC pauses over the turns (every turn, warm-up turn included): a tail latency above the raw
 * limit's comes either from JavaScript run between reads or from the collector, and the send lag alone does
 * not tell which. Returns the function that stops watching and says what it saw.
 */
function watchGcPauses(): () => string {
  let [count, totalMs, longestMs] = [0, 0, 0];
  const observer = new PerformanceObserver((list) => {
    for (const { duration } of list.getEntries()) {
      count++;
      totalMs += duration;
      longestMs = Math.max(longestMs, duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    return `GC over the turns: ${count} pauses, ${totalMs.toFixed(2)} ms in all, the longest ${longestMs.toFixed(2)} ms`;
  };
}
