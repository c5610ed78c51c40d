/**
 * A loop measured in turns (see TurnSchedule in types.ts): the loop (closed, or an open loop at a rate) runs
 * only in this contender's turns, each turn's window opens once the loop has settled, and the turns' windows
 * are added up.
 */
import { READY_MARKER, type TurnSchedule } from '../types.js';
import { TurnGate } from './turn-gate.js';
import { isLostTurn, rampMs, type TurnsMeasured, turnCellFigures } from './turn-trace.js';
import { MeasureWindow, sleep, untilIdle, type WindowFigures } from './window.js';

/** What a loop is told of the turn it starts (an open loop paces from the turn's planned start). */
export interface PlannedTurn {
  /** the turn's planned start, performance.now() */
  startAt: number;
  /** the first cycle's turn, whose figures are never counted */
  warmUp: boolean;
}

/** A loop that can be started and stopped again: a closed loop of N in flight, or an open loop at a rate. */
export interface TurnLoop {
  /**
   * Starts N requests in flight (none are in flight when it is called). In turns, `gate` keeps the turn's
   * window: the loop reports its counters to it after each completion and stops issuing once it says no.
   */
  start(gate?: TurnGate, turn?: PlannedTurn): void;
  /** lets the requests in flight finish without issuing more */
  stop(): void;
  /**
   * In turns, once the turn's requests have finished: whether the turn counts (not the warm-up, not lost),
   * so that a loop keeping figures of its own (an open loop's latencies) adds up the same turns.
   */
  endTurn?(counted: boolean): void;
  inFlight(): number;
  completed(): number;
  errors(): number;
}

/** The performance.now() time of the epoch-ms time `at`. */
function performanceAt(at: number): number {
  return performance.now() + (at - Date.now());
}

/** Waits until the epoch-ms time `at`. */
async function until(at: number): Promise<void> {
  const wait = at - Date.now();
  if (wait > 0) await sleep(wait);
}

/**
 * Says the worker is ready (READY_MARKER on stdout) and waits for the orchestrator's start line on stdin:
 * the epoch ms at which the first turn of the case begins (start-barrier.ts).
 */
export function readyForTurns(): Promise<number> {
  process.stdout.write(`${READY_MARKER}\n`);
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end < 0) return;
      done();
      const startAt = Number(text.slice(0, end));
      if (Number.isFinite(startAt)) resolve(startAt);
      else reject(new Error(`bad start line from the orchestrator: ${JSON.stringify(text.slice(0, end))}`));
    };
    const onEnd = () => {
      done();
      reject(new Error('the orchestrator closed stdin before the start line'));
    };
    const done = () => {
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      process.stdin.pause();
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', onEnd);
  });
}

/** Waits for the start line, then runs `loop` in its turns (runTurns). */
export async function runInTurns(loop: TurnLoop, turns: TurnSchedule): Promise<TurnsMeasured> {
  return runTurns(loop, turns, await readyForTurns());
}

/** Runs `loop` in its turns from `startAt` (epoch ms) and returns the measured windows added up. */
export async function runTurns(loop: TurnLoop, turns: TurnSchedule, startAt: number): Promise<TurnsMeasured> {
  const period = turns.turnMs + turns.gapMs;
  const total: TurnsMeasured = {
    ops: 0,
    errors: 0,
    elapsedMs: 0,
    cpuUs: 0,
    drainMs: 0,
    turnRates: [],
    turnCpuUsPerOp: [],
    lostTurns: 0,
    trace: [],
  };
  for (let cycle = 0; cycle <= turns.cycles; cycle++) {
    const start = startAt + (cycle * turns.of + turns.index) * period;
    await until(start);
    const lateMs = Date.now() - start;
    // one reading of the clocks for the whole turn, so that its start, window and end agree to the µs
    const turnAt = performanceAt(start);
    const gate = new TurnGate(turnAt + rampMs(turns.turnMs), turnAt + turns.turnMs);
    loop.start(gate, { startAt: turnAt, warmUp: cycle === 0 });
    await until(start + turns.turnMs);
    const closedAt = Date.now();
    gate.close();
    const measured = gate.window();
    const inFlightAtEnd = loop.inFlight();
    loop.stop();
    await untilIdle(() => loop.inFlight(), 2);
    const trace = {
      lateMs,
      closedLateMs: closedAt - (start + turns.turnMs),
      windowMs: Math.round(measured.elapsedMs),
      ops: measured.ops,
      inFlightAtEnd,
      drainMs: Date.now() - closedAt,
      inFlightAfterDrain: loop.inFlight(),
    };
    const lost = isLostTurn(trace, turns);
    total.trace.push({ ...trace, lost });
    loop.endTurn?.(cycle > 0 && !lost);
    if (cycle === 0) continue;
    if (lost) {
      // left out of the sums; a 0 keeps the cycles of turnRates aligned (pairing skips it)
      total.lostTurns++;
      total.turnRates.push(0);
      total.turnCpuUsPerOp.push(0);
      continue;
    }
    total.ops += measured.ops;
    total.errors += measured.errors;
    total.elapsedMs += measured.elapsedMs;
    total.cpuUs += measured.cpuUs;
    total.drainMs = Math.max(total.drainMs, trace.drainMs);
    total.turnRates.push(measured.elapsedMs > 0 ? (measured.ops * 1000) / measured.elapsedMs : 0);
    total.turnCpuUsPerOp.push(measured.ops > 0 ? measured.cpuUs / measured.ops : 0);
  }
  return total;
}

/** One stretch: warm-up, then the measured window, then the requests in flight finish. */
export async function runWarmThenMeasure(
  loop: TurnLoop,
  spec: { warmupMs: number; durationMs: number },
): Promise<WindowFigures> {
  loop.start();
  const window = new MeasureWindow();
  await sleep(spec.warmupMs);
  window.open(loop.completed(), loop.errors());
  await sleep(spec.durationMs);
  const measured = window.close(loop.completed(), loop.errors());
  loop.stop();
  // Let every request in flight finish before the session closes, so none ends as an error.
  await untilIdle(() => loop.inFlight(), 5);
  return measured;
}

/**
 * Runs a throughput cell's loop the way its spec asks: in turns (figures, or the error that says why there
 * are none), or as one warm-up and window when turns are off.
 */
export async function runLoopCell(
  loop: TurnLoop,
  spec: { warmupMs: number; durationMs: number; turns?: TurnSchedule | undefined },
): Promise<ReturnType<typeof turnCellFigures> | { ok: true; figures: WindowFigures }> {
  if (spec.turns) {
    await warmUpAlongside(loop, spec.turns.warmUpMs);
    return turnCellFigures(await runInTurns(loop, spec.turns), spec.turns);
  }
  return { ok: true, figures: await runWarmThenMeasure(loop, spec) };
}

/**
 * Before the turns (TurnSchedule.warmUpMs): runs the loop for `ms`, unmeasured, while the other contenders of
 * the case run theirs, then lets its requests in flight finish. Done before saying ready, so the first turn
 * waits for the slowest to finish warming up.
 */
export async function warmUpAlongside(loop: TurnLoop, ms: number): Promise<void> {
  if (ms <= 0) return;
  loop.start();
  await sleep(ms);
  loop.stop();
  await untilIdle(() => loop.inFlight(), 5);
}
