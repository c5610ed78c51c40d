/**
 * What each turn of a turn cell did, which turns are lost, and how a cell that measured nothing says why.
 *
 * The loop keeps its turn's window by the clock at each completion (turn-gate.ts), so a late timer no longer
 * stretches or empties it. A turn is still lost when fewer than half of its window's planned milliseconds lie
 * between its first and last counted completions: a loop that handled no reply inside the window (its event
 * loop held through it, or nothing came back) measured nothing that could stand for the turn.
 */
import type { TurnSchedule } from '../types.js';
import type { WindowFigures } from './window.js';

/** What happened in one turn (the warm-up turn too). */
export interface TurnTrace {
  /** how long after its planned start the loop was started */
  lateMs: number;
  /** how long after the turn's planned end its closing timer fired (a busy event loop fires it late) */
  closedLateMs: number;
  windowMs: number;
  /** operations completed inside the window */
  ops: number;
  inFlightAtEnd: number;
  /** how long the requests in flight took to finish once the loop stopped */
  drainMs: number;
  /** still in flight when the wait for them gave up (10 s) */
  inFlightAfterDrain: number;
}

/** The measured windows of a turn cell added up (lost turns left out), with each turn's trace. */
export interface TurnsMeasured extends WindowFigures {
  drainMs: number;
  /** ops/s of each measured turn, cycle by cycle; 0 for a lost turn */
  turnRates: number[];
  /** CPU µs per op of each measured turn, cycle by cycle; 0 for a lost turn or one that completed nothing */
  turnCpuUsPerOp: number[];
  lostTurns: number;
  trace: (TurnTrace & { lost: boolean })[];
}

/** A turn's first moments (the loop fills its depth, a paced reader finds its rate) are not counted. */
export function rampMs(turnMs: number): number {
  return Math.min(100, Math.round(turnMs / 5));
}

/** True when the window measured too little of the turn to stand for it (see the top of this file). */
export function isLostTurn(trace: TurnTrace, turns: Pick<TurnSchedule, 'turnMs'>): boolean {
  const planned = turns.turnMs - rampMs(turns.turnMs);
  return trace.windowMs < planned / 2;
}

/** Timers fire a few ms late on any machine; a closing timer later than this found the event loop busy. */
function busyAfterMs(turns: Pick<TurnSchedule, 'gapMs'>): number {
  return Math.max(turns.gapMs / 2, 25);
}

/** The turns one by one (the first is the warm-up), for an error or a note. */
export function describeTurns(trace: TurnsMeasured['trace']): string {
  return trace
    .map(
      (t, i) =>
        `${i === 0 ? 'warm-up' : `turn ${i}`}${t.lost ? ' (lost)' : ''}: began ${t.lateMs} ms late, ` +
        `${t.ops} ops in ${t.windowMs} ms closing ${t.closedLateMs} ms late, ` +
        `${t.inFlightAtEnd} in flight at its end, ${t.drainMs} ms to finish them` +
        (t.inFlightAfterDrain > 0 ? ` (${t.inFlightAfterDrain} never finished)` : ''),
    )
    .join('; ');
}

/**
 * A turn cell's figures for its CellResult (the trace stays in the worker), or, when no measured turn
 * counted an operation, an error that shows every turn: "lost" when every turn's closing timer came late
 * (the event loop was busy), else "no operation completed".
 */
export function turnCellFigures(
  measured: TurnsMeasured,
  turns: Pick<TurnSchedule, 'gapMs'>,
): { ok: true; figures: Omit<TurnsMeasured, 'trace'> } | { ok: false; error: string; turnsLost?: boolean } {
  const { trace, ...figures } = measured;
  if (figures.ops > 0) return { ok: true, figures };
  const busy = trace.slice(1).every((t) => t.closedLateMs > busyAfterMs(turns));
  if (busy) {
    const error = `every measured turn was lost: the worker's event loop was busy through it (${describeTurns(trace)})`;
    return { ok: false, error, turnsLost: true };
  }
  return { ok: false, error: `no operation completed in any measured turn (${describeTurns(trace)})` };
}
