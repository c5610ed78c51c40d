/** The orchestrator's side of taking turns (TurnSchedule in types.ts). */
import type { BenchOptions } from './cli-options.js';
import type { TurnSchedule } from './types.js';

/** How long the workers get to start (a JVM, tsx, connect) before the first turn. */
export const TURNS_STARTUP_MS = 4_000;

/** The schedule of `of` contenders taking turns from `startAt`: enough cycles for --duration each. */
export function turnScheduleFor(
  options: Pick<BenchOptions, 'turnMs' | 'turnGapMs' | 'durationMs'>,
  of: number,
  startAt: number,
): TurnSchedule {
  return {
    startAt,
    index: 0,
    of,
    turnMs: options.turnMs,
    gapMs: options.turnGapMs,
    cycles: Math.max(1, Math.ceil(options.durationMs / options.turnMs)),
  };
}

/** When the last turn of `turns` ends (epoch ms), its gap included: the warm-up cycle and the measured ones. */
export function turnsEndAt(turns: TurnSchedule): number {
  return turns.startAt + (turns.cycles + 1) * turns.of * (turns.turnMs + turns.gapMs);
}
