/** The orchestrator's side of taking turns (TurnSchedule in types.ts). */
import type { BenchOptions } from './cli-options.js';
import type { ScenarioKind, TurnSchedule } from './types.js';

/**
 * How long every worker of a case gets to be ready (a JVM starting, tsx compiling, a session connecting):
 * generous, because CI runs the bench next to other tests on two cores. A worker still not ready by then
 * is left out (start-barrier.ts) and the others start.
 */
export const TURNS_READY_TIMEOUT_MS = 120_000;

/** From "all are ready" to the first turn: time for the start line to reach every worker. */
export const TURNS_START_MARGIN_MS = 300;

/**
 * The schedule of `of` contenders taking turns: enough cycles for --duration each, after --turn-warmup of
 * every contender's loop at once (closed loops; an open loop at its share of the case's rate).
 */
export function turnScheduleFor(
  options: Pick<BenchOptions, 'turnMs' | 'turnGapMs' | 'durationMs' | 'turnWarmupMs'>,
  of: number,
): TurnSchedule {
  return {
    index: 0,
    of,
    turnMs: options.turnMs,
    gapMs: options.turnGapMs,
    cycles: Math.max(1, Math.ceil(options.durationMs / options.turnMs)),
    warmUpMs: options.turnWarmupMs,
  };
}

/** How long the turns of `turns` last from the first turn's start, the last gap included. */
export function turnsSpanMs(turns: TurnSchedule): number {
  return (turns.cycles + 1) * turns.of * (turns.turnMs + turns.gapMs);
}

/** The turn length of a case of `kind`: open-loop latency cases take longer turns (--open-loop-turns). */
export function turnMsFor(
  options: Pick<BenchOptions, 'turnMs' | 'openLoopTurnMs'>,
  kind: ScenarioKind,
): number {
  return kind === 'latency' ? options.openLoopTurnMs : options.turnMs;
}
