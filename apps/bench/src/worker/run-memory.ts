/**
 * Memory cells for the Node clients: how much a client keeps per armed one-shot watch, for one persistent
 * recursive watch over 100,000 nodes (armed, then after an event per node), and per request in flight.
 *
 * Each figure is the growth from a connected session's baseline, both sides taken after full GCs: heap =
 * V8 heap used + external (ArrayBuffers and native memory V8 is told about), RSS = the process's resident
 * set. A C client's own allocations show in RSS only. Every cell makes a few tries (the median is taken in
 * memory-figures.ts) after one smaller warm-up try, so that code compiled on first use is not counted.
 */
import { memoryNodePath } from '../memory-tree.js';
import type { CellResult, CellSpec, MemoryTries } from '../types.js';
import type { ClientDriver, DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';
import { MeasureWindow, sleep } from './window.js';

/** Measured tries per cell; the report takes their median. */
export const MEMORY_TRIES = 3;
/** Size of the unmeasured warm-up try. */
const WARMUP_UNITS = 2_000;
/** Requests in flight while arming watches or setting nodes (the figures are taken once all completed). */
const WINDOW = 1_000;

interface Sample {
  heap: number;
  rss: number;
}

/** Heap and RSS after full GCs (two: the first can leave work for finalizers and weak callbacks). */
function sample(): Sample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('memory cells need node --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed + usage.external, rss: usage.rss };
}

/** Issues `issue(i, ok, fail)` for i in 0..count-1 with at most WINDOW outstanding. */
function pipelined(
  count: number,
  issue: (i: number, ok: () => void, fail: (error: unknown) => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (count === 0) return resolve();
    let issued = 0;
    let done = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (!failed) reject(error);
      failed = true;
    };
    const ok = () => {
      if (++done === count) resolve();
      else if (issued < count && !failed) issue(issued++, ok, fail);
    };
    while (issued < Math.min(WINDOW, count)) issue(issued++, ok, fail);
  });
}

/** One round trip, so that the baseline has the session's read path warmed and its buffers allocated. */
const roundTrip = (driver: ClientDriver, path: string) =>
  new Promise<void>((resolve, reject) => driver.getData(path, resolve, reject));

/** A shared watcher: the cells count the library's cost per watch, not a closure per watch. */
const ignore = () => {};

async function withSession<T>(factory: DriverFactory, spec: CellSpec, run: (d: ClientDriver) => Promise<T>) {
  const driver = await factory(spec.connectString);
  try {
    return await run(driver);
  } finally {
    await driver.close().catch(() => {});
    // a moment for what the closed session still holds (a C client's thread, a socket's last callbacks)
    // to let go before the next try's baseline
    await sleep(300);
  }
}

/** One try of `watches`: a fresh session, its baseline, then `count` getData with a one-shot watch. */
function armWatches(factory: DriverFactory, spec: CellSpec, tree: string, count: number) {
  return withSession(factory, spec, async (driver) => {
    await roundTrip(driver, tree);
    const before = sample();
    await pipelined(count, (i, ok, fail) => driver.watchData(memoryNodePath(tree, i), ignore, ok, fail));
    const after = sample();
    return { heap: after.heap - before.heap, rss: after.rss - before.rss };
  });
}

/**
 * One try of `recursive`: a fresh session, its baseline, one persistent recursive watch on the tree's root
 * (figure 1), then a setData of every node on the same session and, once every event has reached the
 * watcher, figure 2. A client that keeps nothing per event shows the same growth twice.
 */
function recursiveWatch(factory: DriverFactory, spec: CellSpec, tree: string, count: number) {
  return withSession(factory, spec, async (driver) => {
    if (!driver.addRecursiveWatch) throw new Error('no addWatch');
    await roundTrip(driver, tree);
    const before = sample();
    let events = 0;
    let allArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    await driver.addRecursiveWatch(tree, () => {
      if (++events === count) allArrived();
    });
    const armed = sample();
    const empty = Buffer.alloc(0);
    await pipelined(count, (i, ok, fail) => driver.setData(memoryNodePath(tree, i), empty, ok, fail));
    await withTimeout(arrived, 60_000, `${count} watch events (${events} arrived)`);
    const handled = sample();
    return {
      armed: { heap: armed.heap - before.heap, rss: armed.rss - before.rss },
      handled: { heap: handled.heap - before.heap, rss: handled.rss - before.rss },
    };
  });
}

/**
 * One try of `inFlight`: `count` getData issued in one synchronous loop, and the figures taken right
 * after, before the event loop can run, so no reply has been read; then every reply is awaited.
 */
async function requestsInFlight(driver: ClientDriver, path: string, count: number) {
  const before = sample();
  let done = 0;
  let failure: unknown;
  let allDone: () => void = () => {};
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

/** Runs one memory cell for a Node client. */
export async function runMemory(factory: DriverFactory, spec: CellSpec): Promise<CellResult> {
  const tree = spec.paths.memoryTree;
  if (tree === undefined) return { ok: false, error: 'the run made no memory tree' };
  const count = spec.inFlight;
  const window = new MeasureWindow();
  window.open(0, 0);
  const memory: MemoryTries = { units: count, heapBytes: [], rssBytes: [] };
  switch (spec.memoryCell) {
    case 'watches': {
      await armWatches(factory, spec, tree, Math.min(count, WARMUP_UNITS));
      for (let t = 0; t < MEMORY_TRIES; t++) {
        const grown = await armWatches(factory, spec, tree, count);
        memory.heapBytes.push(grown.heap);
        memory.rssBytes.push(grown.rss);
      }
      break;
    }
    case 'recursive': {
      const probe = await factory(spec.connectString);
      const supported = probe.addRecursiveWatch !== undefined;
      await probe.close().catch(() => {});
      if (!supported) return { ok: false, unsupported: true, error: `${spec.contender} has no addWatch` };
      await recursiveWatch(factory, spec, tree, WARMUP_UNITS);
      memory.units = 1;
      const afterEvents = { events: count, heapBytes: [] as number[], rssBytes: [] as number[] };
      for (let t = 0; t < MEMORY_TRIES; t++) {
        const { armed, handled } = await recursiveWatch(factory, spec, tree, count);
        memory.heapBytes.push(armed.heap);
        memory.rssBytes.push(armed.rss);
        afterEvents.heapBytes.push(handled.heap);
        afterEvents.rssBytes.push(handled.rss);
      }
      memory.afterEvents = afterEvents;
      break;
    }
    case 'inFlight': {
      await withSession(factory, spec, async (driver) => {
        await requestsInFlight(driver, spec.paths.data, Math.min(count, WARMUP_UNITS));
        for (let t = 0; t < MEMORY_TRIES; t++) {
          const grown = await requestsInFlight(driver, spec.paths.data, count);
          memory.heapBytes.push(grown.heap);
          memory.rssBytes.push(grown.rss);
        }
      });
      break;
    }
    default:
      return { ok: false, error: `unknown memory cell ${String(spec.memoryCell)}` };
  }
  // ops = tries, so that the generic "completed no cell" checks see a working contender
  return { ok: true, ...window.close(MEMORY_TRIES, 0), memory };
}
