/**
 * Throughput of a Node client: N independent slots, each issuing its next operation as soon as the previous
 * one completes, so that N requests stay in flight; measured in turns (measure/turns.ts).
 */
import type { ClientDriver, Fail, Ok } from '../contenders/driver.js';
import { runLoopInTurns, type TurnGate, type TurnLoop } from '../measure/turns.js';
import type { CellResult, CellSpec } from '../types.js';

type Issue = (slot: number, ok: Ok, fail: Fail) => void;

/** The operation a cell repeats, bound to the fixture paths; undefined when the driver lacks it. */
function issuerFor(driver: ClientDriver, spec: CellSpec): Issue | undefined {
  const { paths } = spec;
  const data = Buffer.alloc(spec.dataSize, 0x61);
  switch (spec.op) {
    case 'getData':
      return (_, ok, fail) => driver.getData(paths.data, ok, fail);
    case 'exists':
      return (_, ok, fail) => driver.exists(paths.data, ok, fail);
    case 'setData':
      return (_, ok, fail) => driver.setData(paths.data, data, ok, fail);
    case 'getChildren':
      return (_, ok, fail) => driver.getChildren(paths.children, ok, fail);
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
      return multi && ((_, ok, fail) => multi(paths.multi, data, ok, fail));
    }
    default:
      return undefined;
  }
}

/** The closed loop of N slots. */
function closedLoop(issue: Issue, inFlight: number): TurnLoop & { firstError: unknown } {
  let completed = 0;
  let errors = 0;
  let outstanding = 0;
  let stopped = true;
  let gate: TurnGate | undefined;
  const state = { firstError: undefined as unknown };
  const goOn = () => {
    if (!stopped && gate !== undefined && !gate.note(completed, errors)) stopped = true;
    return !stopped;
  };
  // The slots' callbacks are made once per cell, not at each turn's start: under tsx every named closure
  // is wrapped as it is made, which would cost a deep loop milliseconds of CPU at each turn's start.
  const slots = Array.from({ length: inFlight }, (_, slot) => {
    const ok: Ok = () => {
      completed++;
      outstanding--;
      if (goOn()) next();
    };
    const fail: Fail = (error) => {
      errors++;
      state.firstError ??= error;
      outstanding--;
      if (goOn()) next();
    };
    const next = () => {
      outstanding++;
      issue(slot, ok, fail);
    };
    return next;
  });
  return Object.assign(state, {
    start(turnGate?: TurnGate) {
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
  });
}

/** One throughput cell on a connected driver. */
export async function runThroughput(driver: ClientDriver, spec: CellSpec): Promise<CellResult> {
  const issue = issuerFor(driver, spec);
  if (!issue) return { ok: false, unsupported: true, error: `${spec.contender} has no ${spec.op}` };
  const loop = closedLoop(issue, spec.inFlight);
  const result = await runLoopInTurns(loop, spec.turns);
  if (loop.errors() > 0 && (!result.ok || result.ops === 0)) {
    return { ok: false, error: `every operation failed: ${String(loop.firstError)}` };
  }
  return result;
}
