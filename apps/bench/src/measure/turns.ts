/**
 * A worker's side of taking turns (TurnSchedule in types.ts): the loop (closed, or an open loop at a rate)
 * runs only in this contender's turns, each turn's window is kept by the loop's own completions (TurnGate),
 * and the measured turns are added up, each turn's figures kept for the pairing in stats.ts.
 */
import { type CellResult, READY_MARKER, type TurnSchedule } from '../types.js';
import { sleep, untilIdle, type WindowFigures } from './window.js';

/** A loop that can start (N in flight, or pacing from the turn's start) and stop again. */
export interface TurnLoop {
  /** `gate` keeps the turn's window; the loop reports to it after each completion and stops when it says no */
  start(gate?: TurnGate, turnStartAt?: number): void;
  /** lets the requests in flight finish without issuing more */
  stop(): void;
  /** once the turn's requests have finished: whether the turn counted (a loop with figures of its own) */
  endTurn?(counted: boolean): void;
  inFlight(): number;
  completed(): number;
  errors(): number;
}

/**
 * A turn's measured window, kept by the loop itself: timers cannot, because a client that handles replies for
 * hundreds of ms without a break (node-zookeeper-client with more replies than one read holds) fires them
 * late, and a window opened and closed by timers then measured nothing or ran into the next turn.
 */
export class TurnGate {
  private opened = false;
  private closed = false;
  private at = { ops: 0, errors: 0, time: 0 };
  private last = { ops: 0, errors: 0, time: 0 };
  private cpuAtOpen: NodeJS.CpuUsage = { user: 0, system: 0 };
  private cpuUs = 0;

  /** performance.now() times */
  constructor(
    readonly openAt: number,
    readonly closeAt: number,
  ) {}

  /** The loop's totals right after a completion; false once the turn is over (issue nothing more). */
  note(completed: number, errors: number): boolean {
    if (this.closed) return false;
    const now = performance.now();
    if (now < this.openAt) return true;
    if (now > this.closeAt) {
      this.close();
      return false;
    }
    this.last = { ops: completed, errors, time: now };
    if (!this.opened) {
      this.opened = true;
      this.at = this.last;
      this.cpuAtOpen = process.cpuUsage();
    }
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.opened) return;
    const cpu = process.cpuUsage(this.cpuAtOpen);
    this.cpuUs = cpu.user + cpu.system;
  }

  /** From the first completion past the open to the last one before the close. */
  window(): WindowFigures {
    return {
      ops: this.last.ops - this.at.ops,
      errors: this.last.errors - this.at.errors,
      elapsedMs: this.last.time - this.at.time,
      cpuUs: this.cpuUs,
    };
  }
}

/** A turn's first moments (the loop filling its depth, a pacer finding its rate) are not counted. */
export const rampMs = (turnMs: number) => Math.min(100, Math.round(turnMs / 5));

/** The measured turns added up. */
export interface TurnsMeasured extends WindowFigures {
  drainMs: number;
  turnRates: number[];
  turnCpuUsPerOp: number[];
  lostTurns: number;
}

/** Says ready (READY_MARKER) and reads the first turn's start (epoch ms) from stdin. */
export function readyForTurns(): Promise<number> {
  process.stdout.write(`${READY_MARKER}\n`);
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end < 0) return;
      process.stdin.off('data', onData).pause();
      const startAt = Number(text.slice(0, end));
      if (Number.isFinite(startAt)) resolve(startAt);
      else reject(new Error(`bad start line: ${JSON.stringify(text.slice(0, end))}`));
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', () => reject(new Error('stdin closed before the start line')));
  });
}

async function until(epochMs: number): Promise<void> {
  const wait = epochMs - Date.now();
  if (wait > 0) await sleep(wait);
}

/**
 * Runs `loop` in its turns from `startAt` (epoch ms). A turn is lost when its window covers less than half of
 * its planned length (the event loop was held through it): it is left out, and a 0 keeps the cycles aligned.
 */
export async function runTurns(loop: TurnLoop, turns: TurnSchedule, startAt: number): Promise<TurnsMeasured> {
  const period = turns.turnMs + turns.gapMs;
  const planned = turns.turnMs - rampMs(turns.turnMs);
  const total: TurnsMeasured = {
    ...{ ops: 0, errors: 0, elapsedMs: 0, cpuUs: 0, drainMs: 0, lostTurns: 0 },
    ...{ turnRates: [], turnCpuUsPerOp: [] },
  };
  for (let cycle = 0; cycle <= turns.cycles; cycle++) {
    const start = startAt + (cycle * turns.of + turns.index) * period;
    await until(start);
    const turnAt = performance.now() + (start - Date.now());
    const gate = new TurnGate(turnAt + rampMs(turns.turnMs), turnAt + turns.turnMs);
    loop.start(gate, turnAt);
    await until(start + turns.turnMs);
    const closedAt = Date.now();
    gate.close();
    loop.stop();
    await untilIdle(() => loop.inFlight(), 2);
    const w = gate.window();
    const lost = w.elapsedMs < planned / 2;
    loop.endTurn?.(cycle > 0 && !lost);
    if (cycle === 0) continue;
    if (lost) {
      total.lostTurns++;
      total.turnRates.push(0);
      total.turnCpuUsPerOp.push(0);
      continue;
    }
    total.ops += w.ops;
    total.errors += w.errors;
    total.elapsedMs += w.elapsedMs;
    total.cpuUs += w.cpuUs;
    total.drainMs = Math.max(total.drainMs, Date.now() - closedAt);
    total.turnRates.push((w.ops * 1000) / w.elapsedMs);
    total.turnCpuUsPerOp.push(w.ops > 0 ? w.cpuUs / w.ops : 0);
  }
  return total;
}

/**
 * A closed loop's cell in turns: first the loop runs alongside the other contenders, unmeasured
 * (TurnSchedule.warmUpMs), then it waits for the start, runs the turns and reports (or says why not).
 */
export async function runLoopInTurns(loop: TurnLoop, turns: TurnSchedule | undefined): Promise<CellResult> {
  if (!turns) return { ok: false, error: 'this cell runs only in turns' };
  if (turns.warmUpMs > 0) {
    loop.start();
    await sleep(turns.warmUpMs);
    loop.stop();
    await untilIdle(() => loop.inFlight(), 5);
  }
  return turnsResult(await runTurns(loop, turns, await readyForTurns()), turns);
}

/** The CellResult of measured turns: an error when no measured turn counted an operation. */
export function turnsResult(measured: TurnsMeasured, turns: TurnSchedule): CellResult {
  if (measured.ops > 0) return { ok: true, ...measured };
  const why = measured.lostTurns === turns.cycles ? 'every turn was lost to a busy event loop' : 'no reply';
  return { ok: false, error: `no operation completed in any of ${turns.cycles} measured turns (${why})` };
}
