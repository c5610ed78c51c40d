/**
 * Session setup: connect and wait until connected, back to back; latency and rate count the connect only.
 * Each session is closed in the background (at most CLOSING_AT_ONCE at a time), so that a client whose close
 * blocks for a while (the Java client's takes about 100 ms) is not measured by its close, and every cell opens
 * enough sessions for a meaningful CPU per session. CPU still includes the closes that ran in the window.
 */
import type { CellResult, CellSpec } from '../types.js';
import type { DriverFactory } from './driver.js';
import { LatencyRecorder } from './latency-recorder.js';
import { CellPhases } from './window.js';

/** Sessions that may be closing in the background at once (the same bound as BenchDriver.java). */
export const CLOSING_AT_ONCE = 32;

/** Opens sessions back to back for warmup + duration, closing each in the background. */
export async function runSession(factory: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const recorder = new LatencyRecorder();
  const closing = new Set<Promise<void>>();
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  while (phases.running) {
    phases.openWhenWarm(completed, 0);
    const t0 = process.hrtime.bigint();
    const driver = await factory(spec.connectString);
    recorder.recordSince(t0);
    completed++;
    const closed: Promise<void> = driver
      .close()
      .catch(() => {})
      .finally(() => closing.delete(closed));
    closing.add(closed);
    if (closing.size >= CLOSING_AT_ONCE) await Promise.race(closing);
  }
  const measured = phases.close(completed, 0);
  await Promise.all(closing);
  return { ok: true, ...measured, latency: recorder.summary() };
}
