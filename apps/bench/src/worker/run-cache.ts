/**
 * Cache scenarios with our CuratorCache, mirroring CuratorBench.java's loops: `cacheLoad` (one op = a full
 * initial load of the 10,000-node fixture tree: start, wait for `initialized`, close; CPU per op is the
 * client's CPU per load) with the heap per cached node in the note, and `cacheLatency` (a second session sets
 * a node of the cached tree; time from that setData's send to the cache's `changed` event).
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { importOurs, importOursCompanion, OURS_MODULE_ENV } from '../ours-build.js';
import type { CellResult, CellSpec } from '../types.js';
import { LatencyRecorder } from './latency-recorder.js';
import { CellPhases, MeasureWindow } from './window.js';

/** Loads measured at least, however long each takes. */
const MIN_LOADS = 3;

interface ChildData {
  path: string;
}
interface Cache {
  start(): Promise<void>;
  awaitInitialized(options?: { timeoutMs?: number }): Promise<boolean>;
  close(): Promise<void>;
  readonly size: number;
  on(event: 'changed', listener: (oldData: ChildData, data: ChildData) => void): unknown;
}
interface Client {
  close(): Promise<void>;
  getChildren(path: string): Promise<string[]>;
  setData(path: string, data: Uint8Array): Promise<unknown>;
}
interface Modules {
  connect(options: { connectString: string; sessionTimeoutMs?: number }): Promise<Client>;
  CuratorCache: new (client: Client, path: string) => Cache;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function load(): Promise<Modules> {
  // As the throughput cells run ours: built for the run unless --ours-from source (ours-build.ts).
  const module = process.env[OURS_MODULE_ENV];
  const [client, recipes] = await Promise.all([
    importOurs(module),
    importOursCompanion('@zkwire/recipes', module),
  ]);
  return { ...client, ...recipes } as unknown as Modules;
}

/** A full GC, for the heap figure (the flag is set at run time; the worker is not started with it). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Starts a cache on `tree` and waits for its initial load; throws if it did not load every node. */
async function loadedCache(m: Modules, client: Client, tree: string, expected?: number): Promise<Cache> {
  const cache = new m.CuratorCache(client, tree);
  await cache.start();
  if (!(await cache.awaitInitialized({ timeoutMs: 60_000 })))
    throw new Error('cache: no initial load in 60 s');
  if (expected !== undefined && cache.size !== expected) {
    throw new Error(`cache: loaded ${cache.size} nodes, expected ${expected}`);
  }
  return cache;
}

/** One cache cell for our packages. */
export async function runCache(spec: CellSpec): Promise<CellResult> {
  const tree = spec.paths.cacheTree;
  if (tree === undefined) return { ok: false, error: 'the run made no cache tree' };
  const m = await load();
  const client = await m.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 });
  try {
    return spec.scenario === 'cacheLoad'
      ? await runLoad(m, client, tree, spec)
      : await runLatency(m, client, tree, spec);
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * A load of 10,000 nodes can outlast a whole cell's window, so this cell has its own loop: one load to warm
 * up, then loads back to back for at least `durationMs` and at least 3 loads; each load's time is recorded
 * (the table's percentiles are load times).
 */
async function runLoad(m: Modules, client: Client, tree: string, spec: CellSpec): Promise<CellResult> {
  const first = await loadedCache(m, client, tree);
  const nodes = first.size;
  await first.close();
  const recorder = new LatencyRecorder();
  recorder.recording = true;
  const window = new MeasureWindow();
  window.open(0, 0);
  const started = performance.now();
  let loads = 0;
  while (loads < MIN_LOADS || performance.now() - started < spec.durationMs) {
    const t0 = process.hrtime.bigint();
    const cache = await loadedCache(m, client, tree, nodes);
    recorder.recordSince(t0);
    await cache.close();
    loads++;
  }
  const measured = window.close(loads, 0);
  // Heap plus ArrayBuffer memory (node bytes may live outside the V8 heap), as the JVM heap holds both.
  const used = () => {
    collectGarbage();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  // The median of three tries: one try now and then also counts something else the process allocated.
  const tries: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = used();
    const held = await loadedCache(m, client, tree, nodes);
    tries.push((used() - before) / nodes);
    await held.close();
  }
  const perNode = tries.sort((a, b) => a - b)[1] as number;
  return {
    ok: true,
    ...measured,
    latency: recorder.summary(),
    note: `one op = a full load of ${nodes} nodes (percentiles: load time); heap per cached node ${Math.round(perNode)} bytes`,
  };
}

async function runLatency(m: Modules, client: Client, tree: string, spec: CellSpec): Promise<CellResult> {
  const writer = await m.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 });
  const cache = await loadedCache(m, client, tree);
  try {
    const targets = (await writer.getChildren(tree)).slice(0, 10).map((name) => `${tree}/${name}`);
    const recorder = new LatencyRecorder();
    const phases = new CellPhases(spec, [recorder]);
    let waiting: { path: string; arrived: () => void } | undefined;
    cache.on('changed', (_old, data) => {
      if (data.path === waiting?.path) waiting.arrived();
    });
    const item = Buffer.alloc(spec.dataSize, 0x63);
    let changes = 0;
    while (phases.running) {
      phases.openWhenWarm(changes, 0);
      const path = targets[changes % targets.length] as string;
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<boolean>((resolve) => {
        waiting = { path, arrived: () => resolve(true) };
        timer = setTimeout(() => resolve(false), 10_000); // one timer per change, cleared on arrival
      });
      const t0 = process.hrtime.bigint();
      await writer.setData(path, item);
      const inTime = await arrived;
      clearTimeout(timer);
      if (!inTime) throw new Error('cache: a change took over 10 s to arrive');
      recorder.recordSince(t0);
      changes++;
    }
    const measured = phases.close(changes, 0);
    return {
      ok: true,
      ...measured,
      latency: recorder.summary(),
      note: 'setData on another session to the changed event',
    };
  } finally {
    await cache.close();
    await writer.close().catch(() => {});
  }
}
