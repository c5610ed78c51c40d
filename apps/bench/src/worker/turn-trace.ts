/**
 * What each turn of a turn cell did, which turns are lost, and how a cell that measured nothing says why.
 *
 * A turn is lost when the worker's event loop was busy through it: the timers that open and close its window
 * fire late, so the window either shrinks to nothing or runs on into the next contender's turn (seen with
 * node-zookeeper-client at 1,000 in flight on a loaded 2-core machine: a 400 ms turn measured over 2.2 s, the
 * next one over 0 ms). Such a window does not measure this contender alone, so it is left out, not counted.
 */
import type { TurnSchedule } from '../types.js';

/** What happened in one turn (the warm-up turn too). */
export interface TurnTrace {
  /** how long after its planned start the loop was started */
  lateMs: number;
  /** how long after the end of its ramp the window opened */
  openedLateMs: number;
  /** how long after the turn's planned end the window closed */
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
export interface TurnsMeasured {
  ops: number;
  errors: number;
  elapsedMs: number;
  cpuUs: number;
  drainMs: number;
  /** ops/s of each measured turn, cycle by cycle; 0 for a lost turn */
  turnRates: number[];
  lostTurns: number;
  trace: (TurnTrace & { lost: boolean })[];
}

/** A turn's first moments (the loop fills its depth, a paced reader finds its rate) are not counted. */
export function rampMs(turnMs: number): number {
  return Math.min(100, Math.round(turnMs / 5));
}

/** How late a window may close: timers are a few ms late on any machine; more than this is a busy loop. */
function closeToleranceMs(turns: Pick<TurnSchedule, 'gapMs'>): number {
  return Math.max(turns.gapMs / 2, 25);
}

/**
 * True when the window did not measure this turn: it closed so late that it ran into the next contender's
 * turn, or opened so late that less than half of the planned window was left.
 */
export function isLostTurn(trace: TurnTrace, turns: Pick<TurnSchedule, 'turnMs' | 'gapMs'>): boolean {
  if (trace.closedLateMs > closeToleranceMs(turns)) return true;
  const planned = turns.turnMs - rampMs(turns.turnMs);
  return trace.windowMs < planned / 2;
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
 * completed an operation, an error that shows every turn.
 */
export function turnCellFigures(
  measured: TurnsMeasured,
): { ok: true; figures: Omit<TurnsMeasured, 'trace'> } | { ok: false; error: string; turnsLost?: boolean } {
  const { trace, ...figures } = measured;
  if (figures.ops > 0) return { ok: true, figures };
  if (figures.lostTurns === trace.length - 1) {
    const error = `every measured turn was lost: the worker's event loop was busy through it (${describeTurns(trace)})`;
    return { ok: false, error, turnsLost: true };
  }
  return { ok: false, error: `no operation completed in any measured turn (${describeTurns(trace)})` };
}
