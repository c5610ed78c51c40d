/**
 * The protocol of an external driver (a program in another language: the Java client, Curator): it is
 * started once per cell with the cell as `key=value` arguments, prints READY_MARKER and reads the first
 * turn's start (epoch ms) from stdin when the cell takes turns (`turnCycles` > 0), and prints one line
 * `@@result {CellResult JSON}` on stdout. Other output is ignored.
 */
import type { CellSpec } from '../types.js';

/** The arguments that describe one cell to an external driver. */
export function driverArgs(spec: CellSpec): string[] {
  const args: Record<string, string | number> = {
    kind: spec.kind,
    scenario: spec.scenario,
    op: spec.op ?? '',
    inFlight: spec.inFlight,
    rate: spec.rate ?? 0,
    warmupMs: spec.warmupMs,
    durationMs: spec.durationMs,
    connect: spec.connectString,
    data: spec.paths.data,
    children: spec.paths.children,
    scratch: spec.paths.scratch,
    multi: spec.paths.multi.join(','),
    watch: spec.paths.watch,
    tree: spec.scaleTree ?? spec.paths.tree ?? '',
    base: `${spec.paths.root}/recipes/${spec.cellId}`,
    dataSize: spec.dataSize,
    cellId: spec.cellId,
    ...(spec.turns && {
      turnsIndex: spec.turns.index,
      turnsOf: spec.turns.of,
      turnMs: spec.turns.turnMs,
      gapMs: spec.turns.gapMs,
      turnCycles: spec.turns.cycles,
      turnWarmupMs: spec.turns.warmUpMs,
    }),
  };
  return Object.entries(args).map(([key, value]) => `${key}=${value}`);
}
