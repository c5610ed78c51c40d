/** Session setup: connect, wait until connected, close; one after another. Latency = connect to connected. */
import type { CellResult, CellSpec } from '../types.js';
import type { DriverFactory } from './driver.js';
import { LatencyRecorder } from './latency-recorder.js';
import { MeasureWindow } from './window.js';

/** Opens and closes sessions back to back for warmup + duration. */
export async function runSession(factory: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const recorder = new LatencyRecorder();
  const window = new MeasureWindow();
  let completed = 0;
  const start = performance.now();
  let opened = false;
  while (performance.now() - start < spec.warmupMs + spec.durationMs) {
    if (!opened && performance.now() - start >= spec.warmupMs) {
      opened = true;
      recorder.recording = true;
      window.open(completed, 0);
    }
    const t0 = process.hrtime.bigint();
    const driver = await factory(spec.connectString);
    recorder.recordSince(t0);
    await driver.close();
    completed++;
  }
  if (!opened) window.open(completed, 0);
  return { ok: true, ...window.close(completed, 0), latency: recorder.summary() };
}
