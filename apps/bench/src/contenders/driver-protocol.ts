/**
 * The command line of a cell. An external driver (Java, Curator, Go, Rust) is started once per cell with the
 * cell as `key=value` arguments; it prints READY_MARKER and reads the first turn's start (epoch ms) from stdin
 * when the cell takes turns (`turnCycles` > 0), then one line `@@result {CellResult JSON}` on stdout. Other
 * output is ignored.
 */
import { fileURLToPath } from 'node:url';
import type { CellSpec } from '../types.js';

const workerPath = fileURLToPath(new URL('../worker.ts', import.meta.url));

/**
 * A Node worker (worker.ts) for one cell: the same node and loader (tsx) as this process; memory and scale
 * cells also get --expose-gc, to measure after a full GC (the others run without it, as users' processes do).
 */
export function nodeWorkerCommand(spec: CellSpec): string[] {
  const gc = spec.kind === 'memory' || spec.kind === 'scale' ? ['--expose-gc'] : [];
  return [process.execPath, ...process.execArgv, ...gc, workerPath, JSON.stringify(spec)];
}

/** The node a recipe or modeled cell works under, in every language. */
export const cellBase = (spec: Pick<CellSpec, 'paths' | 'cellId'>) =>
  `${spec.paths.root}/recipes/${spec.cellId}`;

/** The arguments that describe one cell to an external driver. */
export function driverArgs(spec: CellSpec): string[] {
  const { paths, turns } = spec;
  const args: Record<string, string | number> = {
    ...{ kind: spec.kind, scenario: spec.scenario, op: spec.op ?? '', inFlight: spec.inFlight },
    ...{ rate: spec.rate ?? 0, warmupMs: spec.warmupMs, durationMs: spec.durationMs },
    ...{ connect: spec.connectString, data: paths.data, children: paths.children, scratch: paths.scratch },
    ...{ multi: paths.multi.join(','), watch: paths.watch, tree: spec.scaleTree ?? paths.tree ?? '' },
    ...{ base: cellBase(spec), dataSize: spec.dataSize, cellId: spec.cellId },
    ...(turns && {
      ...{ turnsIndex: turns.index, turnsOf: turns.of, turnMs: turns.turnMs, gapMs: turns.gapMs },
      ...{ turnCycles: turns.cycles, turnWarmupMs: turns.warmUpMs },
    }),
  };
  return Object.entries(args).map(([key, value]) => `${key}=${value}`);
}
