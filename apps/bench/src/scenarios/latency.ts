/** The latency cells of a Node client: an open loop of getData through its driver, in turns. */
import type { ClientDriver } from '../contenders/driver.js';
import { runOpenLoopCell } from '../measure/open-loop.js';
import type { CellResult, CellSpec } from '../types.js';

export function runLatency(driver: ClientDriver, spec: CellSpec): Promise<CellResult> {
  const path = spec.paths.data;
  const target = {
    send: (done: (ok: boolean) => void) =>
      driver.getData(
        path,
        () => done(true),
        () => done(false),
      ),
  };
  return runOpenLoopCell(target, spec.rate ?? 0, spec.turns);
}
