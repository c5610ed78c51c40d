/**
 * Session setup: connect until connected, back to back; latency and rate count the connect only. Each
 * session closes in the background (at most CLOSING_AT_ONCE at a time), so that a client whose close blocks
 * (the Java client's takes ~100 ms) is not measured by it; CPU still includes the closes in the window.
 */
import type { DriverFactory } from '../contenders/driver.js';
import { repeatAlone } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

/** Sessions closing in the background at once at most (the same bound in BenchDriver.java). */
const CLOSING_AT_ONCE = 32;

/** Opens sessions with `open` for warm-up + duration; `open` resolves with the session's close. */
export async function runSessions(
  open: () => Promise<() => Promise<void>>,
  spec: CellSpec,
): Promise<CellResult> {
  const closing = new Set<Promise<void>>();
  const measured = await repeatAlone(spec, async (recorder) => {
    const t0 = process.hrtime.bigint();
    const close = await open();
    recorder.record(t0);
    const closed: Promise<void> = close()
      .catch(() => {})
      .finally(() => closing.delete(closed));
    closing.add(closed);
    if (closing.size >= CLOSING_AT_ONCE) await Promise.race(closing);
  });
  await Promise.all(closing);
  return measured;
}

export function runSession(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  return runSessions(async () => {
    const driver = await connect(spec.connectString);
    return () => driver.close();
  }, spec);
}
