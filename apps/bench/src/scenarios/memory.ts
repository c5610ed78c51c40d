/**
 * Memory cells for the Node clients: what a client keeps per armed one-shot watch, and per request in flight.
 * Each figure is growth from a connected session's baseline, both taken after full GCs: heap = V8 heap used +
 * external (ArrayBuffers and native memory V8 is told of), RSS = the process's resident set (a C client's own
 * allocations show only there). Three tries after a smaller warm-up try, so that code compiled on first use
 * is not counted; stats.ts takes the heap's median and the first try's RSS (a process keeps freed pages).
 */
import type { ClientDriver, DriverFactory } from '../contenders/driver.js';
import { treeNodePaths } from '../fixtures.js';
import { MeasureWindow, sleep, withTimeout } from '../measure/window.js';
import { memoryNow } from '../scale/sample.js';
import type { CellResult, CellSpec, MemoryTries } from '../types.js';

const TRIES = 3;
const WARMUP_UNITS = 2_000;
/** requests in flight while arming watches */
const WINDOW = 1_000;

const sample = () => memoryNow(true);
/** A shared watcher: the cells count the library's cost per watch, not a closure per watch. */
const ignore = () => {};

/** One try of memoryWatches: a fresh session, its baseline, then a watch on each of `paths`. */
async function armWatches(connect: DriverFactory, spec: CellSpec, paths: readonly string[]) {
  const driver = await connect(spec.connectString);
  try {
    await new Promise<void>((resolve, reject) => driver.getData(spec.paths.data, resolve, reject));
    const before = sample();
    let next = 0;
    const lane = async () => {
      while (next < paths.length) {
        const path = paths[next++] as string;
        await new Promise<void>((resolve, reject) => driver.watchData(path, ignore, resolve, reject));
      }
    };
    await Promise.all(Array.from({ length: Math.min(WINDOW, paths.length) }, lane));
    const after = sample();
    return { heap: after.heap - before.heap, rss: after.rss - before.rss };
  } finally {
    await driver.close().catch(() => {});
    await sleep(300); // what the closed session still holds lets go before the next baseline
  }
}

/** One try of memoryInFlight: `count` getData issued in one synchronous loop, sampled before any reply. */
async function requestsInFlight(driver: ClientDriver, path: string, count: number) {
  const before = sample();
  let done = 0;
  let failure: unknown;
  let allDone = () => {};
  const finished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const ok = () => {
    if (++done === count) allDone();
  };
  const fail = (error: unknown) => {
    failure ??= error;
    ok();
  };
  for (let i = 0; i < count; i++) driver.getData(path, ok, fail);
  const during = sample();
  await withTimeout(finished, 60_000, `${count} replies (${done} arrived)`);
  if (failure !== undefined) throw failure;
  return { heap: during.heap - before.heap, rss: during.rss - before.rss };
}

export async function runMemory(connect: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const count = spec.inFlight;
  const window = new MeasureWindow();
  window.open(0, 0);
  const memory: MemoryTries = { units: count, heapBytes: [], rssBytes: [] };
  const add = (grown: { heap: number; rss: number }) => {
    memory.heapBytes.push(grown.heap);
    memory.rssBytes.push(grown.rss);
  };
  if (spec.scenario === 'memoryWatches') {
    if (!spec.paths.tree) return { ok: false, error: 'the run made no tree' };
    const paths = treeNodePaths(spec.paths.tree).slice(0, count);
    if (paths.length < count) return { ok: false, error: `the tree has only ${paths.length} nodes` };
    await armWatches(connect, spec, paths.slice(0, WARMUP_UNITS));
    for (let t = 0; t < TRIES; t++) add(await armWatches(connect, spec, paths));
  } else {
    const driver = await connect(spec.connectString);
    try {
      await requestsInFlight(driver, spec.paths.data, WARMUP_UNITS);
      for (let t = 0; t < TRIES; t++) add(await requestsInFlight(driver, spec.paths.data, count));
    } finally {
      await driver.close().catch(() => {});
    }
  }
  // ops = tries, so that a working contender is seen as one
  return { ok: true, ...window.close(TRIES, 0), memory };
}
