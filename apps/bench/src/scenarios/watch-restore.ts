/**
 * watchRestore: `inFlight` one-shot data watches armed on one session that reaches the server through
 * @zkwire/testing's fault proxy, whose connection is then cut. Timed from the client's new connection (the
 * proxy's accept) to the reply of a request sent after it: the SetWatches frames go first on the new
 * connection, so that reply means the server holds every watch again. The SetWatches frames are counted from
 * the bytes the client writes. Then a second session sets every node, and each watch must fire exactly once.
 */
import type { DriverFactory } from '../contenders/driver.js';
import { message, sleep, withTimeout } from '../measure/window.js';
import { cpuSince } from '../scale/sample.js';
import { SetWatchesCounter } from '../scale/set-watches.js';
import { scaleTreePaths } from '../scale/tree.js';
import type { CellResult, CellSpec } from '../types.js';

/** Requests in flight while arming and while setting the nodes. */
const WINDOW = 1_000;
/** How long a restore may take before the cell fails (a client whose SetWatches the server refuses never ends). */
const RESTORE_TIMEOUT_MS = 60_000;
/** After every watch fired, how long a second firing has to show. */
const SETTLE_MS = 500;

async function inLanes(count: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, count) }, lane));
}

export async function runWatchRestore(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const tree = spec.scaleTree;
  if (!tree) return { ok: false, error: 'the orchestrator made no tree for this case' };
  const size = spec.inFlight;
  const testing = await import('@zkwire/testing');
  const [host = '127.0.0.1', port = '2181'] = spec.connectString.split(':');
  const proxy = await testing.startFaultProxy({ host, port: Number(port) });
  const counter = new SetWatchesCounter();
  proxy.corrupt('toServer', (chunk) => {
    counter.push(chunk);
    return chunk;
  });
  const watched = await connect(proxy.connectString);
  const writer = await connect(spec.connectString);
  try {
    const paths = scaleTreePaths(tree, size);
    const fired = new Uint8Array(size);
    await inLanes(size, (i) => {
      const onEvent = () => {
        fired[i] = (fired[i] as number) + 1;
      };
      return new Promise<void>((resolve, reject) =>
        watched.watchData(paths[i] as string, onEvent, resolve, reject),
      );
    });
    await sleep(spec.warmupMs);

    const connections = proxy.totalConnections;
    counter.reset();
    const cpu0 = process.cpuUsage();
    proxy.cut();
    while (proxy.totalConnections === connections) await sleep(1);
    const reconnectedAt = performance.now();
    // a request on the new connection: its reply comes after the server has taken every SetWatches
    for (;;) {
      if (performance.now() - reconnectedAt > RESTORE_TIMEOUT_MS) {
        const sent = `${counter.frames} SetWatches frames (${counter.bytes} bytes) sent`;
        return {
          ok: false,
          error: `no request answered ${RESTORE_TIMEOUT_MS} ms after the reconnect; ${sent}`,
        };
      }
      const answered = await new Promise<boolean>((resolve) =>
        watched.exists(
          spec.paths.data,
          () => resolve(true),
          () => resolve(false),
        ),
      );
      if (answered) break;
      await sleep(5);
    }
    const restoreMs = performance.now() - reconnectedAt;
    const restoreCpuUs = cpuSince(cpu0);
    const lastFrameMs = counter.frames > 0 ? counter.lastAt - reconnectedAt : 0;
    const frames = counter.frames;
    const bytes = counter.bytes;

    const data = Buffer.alloc(spec.dataSize, 0x64);
    await inLanes(
      size,
      (i) =>
        new Promise<void>((resolve, reject) => writer.setData(paths[i] as string, data, resolve, reject)),
    );
    const allFired = async () => {
      while (fired.some((n) => n === 0)) await sleep(20);
    };
    await withTimeout(allFired(), 60_000, 'every watch firing after the reconnect').catch(() => {});
    await sleep(SETTLE_MS);
    const missing = fired.filter((n) => n === 0).length;
    const twice = fired.filter((n) => n > 1).length;
    if (missing > 0 || twice > 0) {
      return {
        ok: false,
        error: `after the reconnect ${missing} of ${size} watches never fired and ${twice} fired more than once`,
      };
    }
    return {
      ok: true,
      ops: 1,
      errors: 0,
      elapsedMs: restoreMs,
      cpuUs: restoreCpuUs,
      scale: {
        size,
        timeMs: restoreMs,
        figures: {
          restoreMs,
          restoreCpuMs: restoreCpuUs / 1000,
          setWatchesFrames: frames,
          setWatchesBytes: bytes,
          lastSetWatchesMs: lastFrameMs,
          firedOnce: size,
        },
      },
    };
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    await watched.close().catch(() => {});
    await writer.close().catch(() => {});
    await proxy.close().catch(() => {});
  }
}
