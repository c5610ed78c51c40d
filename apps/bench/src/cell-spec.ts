/** The spec of one cell (a contender in a case of a round), and the result of one that has no such cell. */
import type { BenchServer } from './bench-server.js';
import type { BenchOptions } from './cli-options.js';
import type { Jvms } from './contenders.js';
import type { Progress } from './progress.js';
import type { BenchCase } from './scenarios.js';
import type { CellResult, CellSpec, ContenderId, FixturePaths } from './types.js';

/** What every cell of a run shares: the options, the server and its fixtures, the JVMs, the progress line. */
export interface BenchRun {
  options: BenchOptions;
  server: BenchServer;
  paths: FixturePaths;
  java: Jvms;
  progress: Progress;
}

/** The spec of one cell: a contender in a case of a round (`rate` for an open-loop cell). */
export function cellSpec(
  options: BenchOptions,
  server: Pick<BenchServer, 'connectString'>,
  paths: FixturePaths,
  cell: {
    round: number;
    index: number;
    benchCase: BenchCase;
    contender: ContenderId;
    rate?: number | undefined;
  },
): CellSpec {
  const { round, index, benchCase, contender, rate } = cell;
  return {
    contender,
    scenario: benchCase.scenario,
    kind: benchCase.kind,
    ...(benchCase.op ? { op: benchCase.op } : {}),
    ...(benchCase.memoryCell ? { memoryCell: benchCase.memoryCell } : {}),
    inFlight: benchCase.inFlight,
    ...(rate ? { rate } : {}),
    warmupMs: options.warmupMs,
    durationMs: benchCase.kind === 'session' ? options.sessionDurationMs : options.durationMs,
    connectString: server.connectString,
    paths,
    dataSize: options.dataSize,
    cellId: `r${round}c${index}${contender.slice(0, 4)}`,
  };
}

/** The result of a contender that has no cell of this kind. */
export function unsupported(benchCase: BenchCase): CellResult {
  return { ok: false, unsupported: true, error: `not a ${benchCase.kind} contender` };
}
