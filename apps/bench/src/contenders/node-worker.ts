/** The command line of a Node worker (worker.ts) for one cell. */
import { fileURLToPath } from 'node:url';
import type { CellSpec } from '../types.js';

const workerPath = fileURLToPath(new URL('../worker.ts', import.meta.url));

/**
 * The same node and loader (tsx) as this process; memory and scale cells also get --expose-gc, to measure after a
 * full GC (the others run without it, as users' processes do).
 */
export function nodeWorkerCommand(spec: CellSpec): string[] {
  const gc = spec.kind === 'memory' || spec.kind === 'scale' ? ['--expose-gc'] : [];
  return [process.execPath, ...process.execArgv, ...gc, workerPath, JSON.stringify(spec)];
}
