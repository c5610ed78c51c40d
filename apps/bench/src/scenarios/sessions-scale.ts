/**
 * sessions: `inFlight` sessions from this one process. The first {@link warmUpSessions} connect before the
 * baseline, so that what a process pays once (the library's load, its JIT code paged in, the young generation
 * grown to its working size) is not spread over the sessions; then a connect storm (STORM_IN_FLIGHT connects at
 * a time, each next one as soon as one is connected) until every session is connected: its time and CPU; then
 * heap and RSS per session after full GCs, over the storm's sessions; then the sessions idle, pinging, for the window (`durationMs`): CPU per
 * second of idling. Sessions time out after 30 s, so each pings every few seconds as its library decides.
 */
import type { ClientDriver, DriverFactory } from '../contenders/driver.js';
import { message, sleep } from '../measure/window.js';
import { cpuSince, memoryNow } from '../scale/sample.js';
import type { CellResult, CellSpec } from '../types.js';

/** Connects in flight at once: a storm, within what one server's accept queue takes without dropping. */
const STORM_IN_FLIGHT = 500;

/** Sessions connected before the baseline: a tenth of the size, 1 to 100. */
export const warmUpSessions = (size: number) => Math.max(1, Math.min(100, Math.floor(size / 10)));

/** Runs `task` for 0 .. count-1, `width` at a time. */
async function inLanes(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

export async function runSessionsScale(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const size = spec.inFlight;
  const sessions: ClientDriver[] = [];
  try {
    const warm = warmUpSessions(size);
    await inLanes(warm, STORM_IN_FLIGHT, async () => {
      sessions.push(await connect(spec.connectString));
    });
    const before = memoryNow();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await inLanes(size - warm, STORM_IN_FLIGHT, async () => {
      sessions.push(await connect(spec.connectString));
    });
    const connectMs = performance.now() - t0;
    const connectCpuUs = cpuSince(cpu0);
    const connected = memoryNow();
    await sleep(spec.warmupMs);
    const cpu1 = process.cpuUsage();
    const t1 = performance.now();
    await sleep(spec.durationMs);
    const idleS = (performance.now() - t1) / 1000;
    const idleCpuUs = cpuSince(cpu1);
    // a session that died while idle would have made the idle cost look low: every one must still answer
    let failed = 0;
    await inLanes(sessions.length, STORM_IN_FLIGHT, (i) => {
      const session = sessions[i] as ClientDriver;
      return new Promise<void>((resolve) =>
        session.exists(spec.paths.data, resolve, () => {
          failed++;
          resolve();
        }),
      );
    });
    if (failed > 0) return { ok: false, error: `${failed} of ${size} sessions did not answer after idling` };
    const added = size - warm;
    return {
      ok: true,
      ops: 1,
      errors: 0,
      elapsedMs: connectMs,
      cpuUs: connectCpuUs,
      scale: {
        size,
        timeMs: connectMs,
        figures: {
          connectMs,
          connectCpuMs: connectCpuUs / 1000,
          heapPerSession: (connected.heap - before.heap) / added,
          rssPerSession: (connected.rss - before.rss) / added,
          idleCpuMsPerS: idleCpuUs / 1000 / idleS,
          idleCpuUsPerSessionPerS: idleCpuUs / idleS / size,
        },
      },
    };
  } catch (error) {
    return { ok: false, error: `${sessions.length} of ${size} connected: ${message(error)}` };
  } finally {
    await inLanes(sessions.length, STORM_IN_FLIGHT, async (i) => {
      await (sessions[i] as ClientDriver).close().catch(() => {});
    });
  }
}
