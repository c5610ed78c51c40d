/**
 * Session setup: connect until connected, back to back; latency and rate count the connect only. Each
 * session closes in the background (at most CLOSING_AT_ONCE at a time), so that a client whose close blocks
 * (the Java client's takes ~100 ms) is not measured by it; CPU still includes the closes in the window.
 */
import type { DriverFactory } from '../contenders/driver.js';
import { CellPhases, LatencyRecorder } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

/** Sessions closing in the background at once at most (the same bound in BenchDriver.java). */
const CLOSING_AT_ONCE = 32;

/** Opens sessions with `open` for warm-up + duration; `open` resolves with the session's close. */
export async function runSessions(
  open: () => Promise<() => Promise<void>>,
  spec: CellSpec,
): Promise<CellResult> {
  const recorder = new LatencyRecorder();
  const closing = new Set<Promise<void>>();
  let completed = 0;
  const phases = new CellPhases(spec, [recorder]);
  while (phases.running) {
    phases.openWhenWarm(completed);
    const t0 = process.hrtime.bigint();
    const close = await open();
    recorder.record(t0);
    completed++;
    const closed: Promise<void> = close()
      .catch(() => {})
      .finally(() => closing.delete(closed));
    closing.add(closed);
    if (closing.size >= CLOSING_AT_ONCE) await Promise.race(closing);
  }
  const measured = phases.close(completed);
  await Promise.all(closing);
  return { ok: true, ...measured, latency: recorder.summary() };
}

export function runSession(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  return runSessions(async () => {
    const driver = await connect(spec.connectString);
    return () => driver.close();
  }, spec);
}
