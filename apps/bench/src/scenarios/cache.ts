/**
 * CuratorCache with our recipes, as CuratorBench.java: `cacheLoad` (one op = a whole initial load of the
 * 10,000-node tree: start, wait for initialized, close; the note gives the heap per cached node, the median of
 * three tries) and `cacheLatency` (another session sets a node of the cached tree; the time from that
 * setData to the cache's `changed` event).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadOurs } from '../contenders/ours.js';
import { LatencyRecorder, MeasureWindow, message, repeatAlone } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

type Packages = Awaited<ReturnType<typeof loadOurs>>;
type Client = Awaited<ReturnType<Packages['client']['connect']>>;

/** A full GC for the heap figure (flag set at run time: the worker is not started with it). */
function heapUsed(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const usage = process.memoryUsage();
  // ArrayBuffers too: node bytes may live outside the V8 heap, where the JVM heap holds both
  return usage.heapUsed + usage.arrayBuffers;
}

async function loaded(m: Packages, client: Client, tree: string, expected?: number) {
  const cache = new m.recipes.CuratorCache(client, tree);
  await cache.start();
  if (!(await cache.awaitInitialized({ timeoutMs: 60_000 })))
    throw new Error('cache: no initial load in 60 s');
  if (expected !== undefined && cache.size !== expected)
    throw new Error(`cache: loaded ${cache.size} nodes, expected ${expected}`);
  return cache;
}

/** A load can outlast a cell's window: one load to warm up, then loads for the duration and at least 3. */
async function runLoad(m: Packages, client: Client, tree: string, spec: CellSpec): Promise<CellResult> {
  const first = await loaded(m, client, tree);
  const nodes = first.size;
  await first.close();
  const recorder = new LatencyRecorder();
  recorder.recording = true;
  const window = new MeasureWindow();
  window.open(0, 0);
  const started = performance.now();
  let loads = 0;
  while (loads < 3 || performance.now() - started < spec.durationMs) {
    const t0 = process.hrtime.bigint();
    await (await loaded(m, client, tree, nodes)).close();
    recorder.record(t0);
    loads++;
  }
  const measured = window.close(loads, 0);
  const tries: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = heapUsed();
    const held = await loaded(m, client, tree, nodes);
    tries.push((heapUsed() - before) / nodes);
    await held.close();
  }
  const perNode = tries.sort((a, b) => a - b)[1] as number;
  const note = `one op = a load of ${nodes} nodes (percentiles: load time); heap per node ${Math.round(perNode)} B`;
  return { ok: true, ...measured, latency: recorder.summary(), note };
}

async function runChanges(m: Packages, client: Client, tree: string, spec: CellSpec): Promise<CellResult> {
  const writer = await m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 });
  const cache = await loaded(m, client, tree);
  try {
    const targets = (await writer.getChildren(tree)).slice(0, 10).map((name) => `${tree}/${name}`);
    let waiting: { path: string; arrived: () => void } | undefined;
    cache.on('changed', (_old, data) => {
      if (data.path === waiting?.path) waiting.arrived();
    });
    const item = Buffer.alloc(spec.dataSize, 0x63);
    let changes = 0;
    return await repeatAlone(spec, async (recorder) => {
      const path = targets[changes++ % targets.length] as string;
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<boolean>((resolve) => {
        waiting = { path, arrived: () => resolve(true) };
        timer = setTimeout(() => resolve(false), 10_000);
      });
      const t0 = process.hrtime.bigint();
      await writer.setData(path, item);
      const inTime = await arrived;
      clearTimeout(timer);
      if (!inTime) throw new Error('cache: a change took over 10 s to arrive');
      recorder.record(t0);
    });
  } finally {
    await cache.close();
    await writer.close().catch(() => {});
  }
}

export async function runCache(spec: CellSpec): Promise<CellResult> {
  const tree = spec.paths.tree;
  if (tree === undefined) return { ok: false, error: 'the run made no tree' };
  const m = await loadOurs();
  const client = await m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 });
  try {
    return spec.scenario === 'cacheLoad'
      ? await runLoad(m, client, tree, spec)
      : await runChanges(m, client, tree, spec);
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    await client.close().catch(() => {});
  }
}
