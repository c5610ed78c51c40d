/**
 * Runs one case's contenders at once, taking turns at the server (TurnSchedule in types.ts): throughput cases,
 * and the open-loop latency cases, so that every contender meets the server in the same state over the cell.
 */
import { type BenchRun, cellSpec, unsupported } from './cell-spec.js';
import { commandFor } from './contenders.js';
import { runWorker } from './run-worker.js';
import type { BenchCase } from './scenarios.js';
import { StartBarrier } from './start-barrier.js';
import type { Observation } from './stats.js';
import {
  TURNS_READY_TIMEOUT_MS,
  TURNS_START_MARGIN_MS,
  turnMsFor,
  turnScheduleFor,
  turnsSpanMs,
} from './turn-schedule.js';
import {
  type CellResult,
  type CellSpec,
  type ContenderId,
  type ScenarioKind,
  supports,
  type TurnSchedule,
} from './types.js';

/** The kinds of case that take turns (the others run one contender after another). */
export function takesTurns(kind: ScenarioKind): boolean {
  return kind === 'throughput' || kind === 'latency';
}

/**
 * Runs a case's contenders at once, in turns: `--duration` of measured turns each, in turns of `--turns` ms
 * (`--open-loop-turns` for an open-loop case), after one warm-up turn each. An open-loop case gives every
 * contender the same `rate` (recorded with each observation, for "fell behind the rate").
 */
export async function runCaseInTurns(
  run: BenchRun,
  contenders: ContenderId[],
  cell: { round: number; index: number; benchCase: BenchCase; observations: Observation[]; rate?: number },
): Promise<void> {
  const { options, server, paths, java, progress } = run;
  const { round, index, benchCase, observations, rate } = cell;
  const taking = contenders.filter((c) => supports(c, benchCase.kind));
  for (const contender of contenders.filter((c) => !supports(c, benchCase.kind))) {
    observations.push({ round, caseKey: benchCase.key, contender, result: unsupported(benchCase) });
  }
  const turns = turnScheduleFor({ ...options, turnMs: turnMsFor(options, benchCase.kind) }, taking.length);
  const barrier = new StartBarrier(taking.length, TURNS_START_MARGIN_MS);
  const turnStart = { barrier, readyTimeoutMs: TURNS_READY_TIMEOUT_MS };
  const timeoutMs = turnsSpanMs(turns) + 60_000;
  const running = taking.map((contender, turn) => {
    const spec: CellSpec = {
      ...cellSpec(options, server, paths, { round, index, benchCase, contender, rate }),
      turns: { ...turns, index: turn },
    };
    progress.start(round, options.rounds, benchCase.key, contender);
    return runWorker(server.clientPrefix, commandFor(spec, java), timeoutMs, turnStart).then((measured) => {
      const result = noteTurnTrouble(measured, turns);
      observations.push({ round, caseKey: benchCase.key, contender, result, ...(rate ? { rate } : {}) });
      progress.finish(round, benchCase.key, contender, result);
    });
  });
  await Promise.all(running);
}

/**
 * Notes what went wrong in a turn cell: requests in flight that outlasted the gap (the next contender's turn
 * began under load), and turns lost to a busy event loop (left out of the figures).
 */
export function noteTurnTrouble(
  result: CellResult,
  turns: Pick<TurnSchedule, 'gapMs' | 'cycles'>,
): CellResult {
  if (!result.ok) return result;
  const notes = result.note ? [result.note] : [];
  if (result.drainMs !== undefined && result.drainMs > turns.gapMs) {
    notes.push(
      `its requests in flight took up to ${result.drainMs} ms to finish after a turn, more than the ${turns.gapMs} ms gap, so the next turn began under load (raise --turn-gap)`,
    );
  }
  if (result.lostTurns) {
    notes.push(
      `${result.lostTurns} of its ${turns.cycles} turns were lost (its event loop was busy through them) and left out`,
    );
  }
  return notes.length > 0 ? { ...result, note: notes.join('; ') } : result;
}
