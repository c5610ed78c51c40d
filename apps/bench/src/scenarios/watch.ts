/**
 * Watch notification latency: session A reads a node with a one-shot data watch, session B changes it, and
 * the time from B's setData to A's event is recorded; one round trip after another.
 */
import type { DriverFactory } from '../contenders/driver.js';
import { CellPhases, LatencyRecorder, withTimeout } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

export async function runWatch(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const watcher = await connect(spec.connectString);
  const writer = await connect(spec.connectString);
  const recorder = new LatencyRecorder();
  const data = Buffer.alloc(spec.dataSize, 0x62);
  const path = spec.paths.watch;
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  try {
    while (phases.running) {
      phases.openWhenWarm(completed);
      let t0 = 0n;
      let onEvent = () => {};
      const event = new Promise<void>((resolve) => {
        onEvent = () => {
          // recorded in the callback itself, so that only the notification counts
          recorder.record(t0);
          resolve();
        };
      });
      await new Promise<void>((resolve, reject) => watcher.watchData(path, () => onEvent(), resolve, reject));
      t0 = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) => writer.setData(path, data, resolve, reject));
      await withTimeout(event, 5_000, 'watch event');
      completed++;
    }
    return { ok: true, ...phases.close(completed), latency: recorder.summary() };
  } finally {
    await Promise.allSettled([watcher.close(), writer.close()]);
  }
}
