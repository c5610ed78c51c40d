/**
 * Pipelined throughput for a Node client: N independent slots, each issuing its next operation as soon as
 * the previous one completes, so that N requests stay in flight. Only completions inside the window count.
 */
import type { CellResult, CellSpec, ThroughputOp } from '../types.js';
import type { ClientDriver, Fail, Ok } from './driver.js';
import type { TurnGate } from './turn-gate.js';
import { runLoopCell, type TurnLoop } from './turns.js';

type Issue = (slot: number, ok: Ok, fail: Fail) => void;

/** The operation a cell repeats, bound to the fixture paths; undefined when the driver lacks it. */
export function issuerFor(driver: ClientDriver, op: ThroughputOp, spec: CellSpec): Issue | undefined {
  const { paths } = spec;
  const data = Buffer.alloc(spec.dataSize, 0x61);
  switch (op) {
    case 'getData':
      return (_slot, ok, fail) => driver.getData(paths.data, ok, fail);
    case 'exists':
      return (_slot, ok, fail) => driver.exists(paths.data, ok, fail);
    case 'setData':
      return (_slot, ok, fail) => driver.setData(paths.data, data, ok, fail);
    case 'getChildren':
      return (_slot, ok, fail) => driver.getChildren(paths.children, ok, fail);
    case 'createDelete': {
      const slotPaths = Array.from(
        { length: spec.inFlight },
        (_, i) => `${paths.scratch}/${spec.cellId}-${i}`,
      );
      return (slot, ok, fail) => {
        const path = slotPaths[slot] as string;
        driver.create(path, data, () => driver.delete(path, ok, fail), fail);
      };
    }
    case 'multi': {
      const multi = driver.multiSetData;
      if (!multi) return undefined;
      return (_slot, ok, fail) => multi(paths.multi, data, ok, fail);
    }
  }
}

/** The closed loop of N slots, which can stop (letting its requests finish) and start again. */
function closedLoop(issue: Issue, inFlight: number): TurnLoop & { firstError(): unknown } {
  let completed = 0;
  let errors = 0;
  let outstanding = 0;
  let stopped = false;
  let firstError: unknown;
  let gate: TurnGate | undefined;
  /** Whether to issue the next request: not once stopped, nor once the turn's gate has closed. */
  const goOn = () => {
    if (!stopped && gate !== undefined && !gate.note(completed, errors)) stopped = true;
    return !stopped;
  };

  /** A slot's loop: issues its next operation, and again on each completion while the turn goes on. */
  const slotLoop = (slot: number): (() => void) => {
    const ok: Ok = () => {
      completed++;
      outstanding--;
      if (goOn()) next();
    };
    const fail: Fail = (error) => {
      errors++;
      firstError ??= error;
      outstanding--;
      if (goOn()) next();
    };
    const next = () => {
      outstanding++;
      issue(slot, ok, fail);
    };
    return next;
  };
  // Made once per cell, not at every turn's start: the worker runs under tsx, whose esbuild keeps function
  // names by wrapping each named closure as it is made (an Object.defineProperty, microseconds apiece). Three
  // per slot at each start took ~8 ms of a multi worker's CPU at 1,000 in flight (profiled), at the moment
  // the turn's ramp should be filling the depth; the raw limit's loop makes none. (The measured window opens
  // after the ramp, so its figures did not include this.)
  const slots = Array.from({ length: inFlight }, (_, slot) => slotLoop(slot));
  return {
    start(turnGate) {
      stopped = false;
      gate = turnGate;
      for (const next of slots) next();
    },
    stop() {
      stopped = true;
    },
    inFlight: () => outstanding,
    completed: () => completed,
    errors: () => errors,
    firstError: () => firstError,
  };
}

/** Runs the closed loop for warmup + duration (or in turns) and reports the window. */
export async function runThroughput(issue: Issue, spec: CellSpec): Promise<CellResult> {
  const loop = closedLoop(issue, spec.inFlight);
  const run = await runLoopCell(loop, spec);
  if (loop.errors() > 0 && (!run.ok || run.figures.ops === 0)) {
    return { ok: false, error: `every operation failed: ${String(loop.firstError())}` };
  }
  return run.ok ? { ok: true, ...run.figures } : run;
}
