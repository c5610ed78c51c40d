/**
 * Pipelined throughput for a Node client: N independent slots, each issuing its next operation as soon as
 * the previous one completes, so that N requests stay in flight. Only completions inside the window count.
 */
import type { CellResult, CellSpec, ThroughputOp } from '../types.js';
import type { ClientDriver, Fail, Ok } from './driver.js';
import { MeasureWindow, sleep } from './window.js';

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

/** Runs the closed loop for warmup + duration and reports the window. */
export async function runThroughput(issue: Issue, spec: CellSpec): Promise<CellResult> {
  let completed = 0;
  let errors = 0;
  let outstanding = 0;
  let stopped = false;
  let firstError: unknown;

  const startSlot = (slot: number) => {
    const ok: Ok = () => {
      completed++;
      outstanding--;
      if (!stopped) next();
    };
    const fail: Fail = (error) => {
      errors++;
      firstError ??= error;
      outstanding--;
      if (!stopped) next();
    };
    const next = () => {
      outstanding++;
      issue(slot, ok, fail);
    };
    next();
  };
  for (let slot = 0; slot < spec.inFlight; slot++) startSlot(slot);

  const window = new MeasureWindow();
  await sleep(spec.warmupMs);
  window.open(completed, errors);
  await sleep(spec.durationMs);
  const measured = window.close(completed, errors);
  stopped = true;
  // Let every request in flight finish before the session closes, so none ends as an error.
  const drainDeadline = Date.now() + 10_000;
  while (outstanding > 0 && Date.now() < drainDeadline) await sleep(5);

  if (measured.ops === 0 && errors > 0) {
    return { ok: false, error: `every operation failed: ${String(firstError)}` };
  }
  return { ok: true, ...measured };
}
