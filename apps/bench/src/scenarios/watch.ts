/**
 * Watch notification latency: session A reads a node with a one-shot data watch, session B changes it, and
 * the time from B's setData to A's event is recorded; one round trip after another.
 */
import type { ClientDriver } from '../contenders/driver.js';
import { repeatAlone, withTimeout } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

/** What the scenario needs of a session (the raw limit gives only this). */
export type WatchDriver = Pick<ClientDriver, 'watchData' | 'setData' | 'close'>;

export async function runWatch(
  connect: (connectString: string) => Promise<WatchDriver>,
  spec: CellSpec,
): Promise<CellResult> {
  const watcher = await connect(spec.connectString);
  const writer = await connect(spec.connectString);
  const data = Buffer.alloc(spec.dataSize, 0x62);
  const path = spec.paths.watch;
  try {
    return await repeatAlone(spec, async (recorder) => {
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
    });
  } finally {
    await Promise.allSettled([watcher.close(), writer.close()]);
  }
}
