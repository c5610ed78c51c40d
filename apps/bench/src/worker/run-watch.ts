/**
 * Watch notification latency: session A reads a node with a one-shot data watch, session B changes it, and
 * the time from B's setData to A's event is recorded. One round trip after another.
 */
import type { CellResult, CellSpec } from '../types.js';
import type { DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';
import { LatencyRecorder } from './latency-recorder.js';
import { CellPhases } from './window.js';

/** Repeats set-watch / change / event for warmup + duration. */
export async function runWatch(factory: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const watcher = await factory(spec.connectString);
  const writer = await factory(spec.connectString);
  const recorder = new LatencyRecorder();
  const data = Buffer.alloc(spec.dataSize, 0x62);
  const path = spec.paths.watch;
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  try {
    while (phases.running) {
      phases.openWhenWarm(completed, 0);
      let t0 = 0n;
      let onEvent: () => void = () => {};
      const event = new Promise<void>((resolve) => {
        onEvent = () => {
          // recorded in the callback itself, not after the awaits, so that only the notification counts
          recorder.recordSince(t0);
          resolve();
        };
      });
      await new Promise<void>((resolve, reject) => watcher.watchData(path, () => onEvent(), resolve, reject));
      t0 = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) => writer.setData(path, data, resolve, reject));
      await withTimeout(event, 5_000, 'watch event');
      completed++;
    }
    return { ok: true, ...phases.close(completed, 0), latency: recorder.summary() };
  } finally {
    await Promise.allSettled([watcher.close(), writer.close()]);
  }
}
