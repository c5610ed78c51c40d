/**
 * `@zkwire/modeled` against curator-x-async's ModeledFramework, loop for loop as CuratorModeled.java.
 * - `modeledRead`: MODEL_COUNT models at `<base>/models/{id}`, written by the framework (transactions of
 *   TRANSACTION_SIZE creates) before the clock starts, then a cached framework over them: one op is
 *   `cached.resolved({ id }).read()` of the next model, and every read must hold its own id.
 * - `modeledUpdate`: one model, two sessions of one process, each looping versioned read → count + 1 →
 *   versioned update, a BadVersion counted as a retry and read again: one op is an update that went through.
 *   At the end the model's count must be the number of updates that went through (none lost).
 * Both make their nodes under the cell's own base and remove them after the window.
 */
import { cellBase } from '../contenders/driver-protocol.js';
import { loadModeled } from '../contenders/ours.js';
import { LatencyRecorder, MeasureWindow, message, timedWindow, withTimeout } from '../measure/window.js';
import type { CellResult, CellSpec } from '../types.js';

/** Models in modeledRead's cache (CuratorModeled.MODELS). */
export const MODEL_COUNT = 10_000;
/** Creates (and deletes) per transaction when the models are made and removed (CuratorModeled.BATCH). */
export const TRANSACTION_SIZE = 1_000;
/**
 * A loop of reads the cache answers at once never leaves the microtask queue, so the client's timers and
 * socket would wait for the whole window: the read loop yields to the event loop after this many reads, as a
 * Node service does between the requests it serves.
 */
const READS_PER_YIELD = 1_000;

/** The model of both scenarios; Jackson writes CuratorModeled.BenchModel's fields in this order too. */
export interface BenchModel {
  id: string;
  owner: string;
  count: number;
}

export const benchModel = (id: string, count = 0): BenchModel => ({ id, owner: 'zkwire-bench', count });

/** `m00000` … : the ids of `count` models, as CuratorModeled.modelIds. */
export const modelIds = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `m${String(i).padStart(5, '0')}`);

/** `items` in slices of at most `size`, in order. */
export const batches = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, b) => items.slice(b * size, (b + 1) * size));

type Packages = Awaited<ReturnType<typeof loadModeled>>;
type Client = Awaited<ReturnType<Packages['client']['connect']>>;

async function cachedReads(m: Packages, client: Client, spec: CellSpec): Promise<CellResult> {
  const { modelSpec, modeled, jsonSerializer } = m.modeled;
  const models = modeled(
    client,
    modelSpec({ path: `${cellBase(spec)}/models/{id}`, serializer: jsonSerializer<BenchModel>() }),
  );
  const ids = modelIds(MODEL_COUNT);
  const [first, ...rest] = ids as [string, ...string[]];
  // the first set makes the parents (as containers, the spec's default); the rest go in transactions
  await models.resolved({ id: first }).set(benchModel(first));
  for (const batch of batches(rest, TRANSACTION_SIZE)) {
    await models.inTransaction(batch.map((id) => models.resolved({ id }).createOp(benchModel(id))));
  }
  const cached = models.cached();
  await cached.start();
  try {
    await withTimeout(cached.initialized(), 60_000, 'modeled: the initial load');
    const loaded = (await cached.listAsZNodes()).length;
    if (loaded !== MODEL_COUNT)
      throw new Error(`modeled: the cache holds ${loaded} models, expected ${MODEL_COUNT}`);
    const window = new MeasureWindow();
    const start = performance.now();
    const open = start + spec.warmupMs;
    const end = open + spec.durationMs;
    let reads = 0;
    let wrong = 0;
    let measuring = false;
    for (let now = start; now < end; now = performance.now()) {
      if (!measuring && now >= open) {
        measuring = true;
        window.open(reads, 0);
      }
      const id = ids[reads % MODEL_COUNT] as string;
      const model = await cached.resolved({ id }).read();
      if (model.id !== id) wrong++;
      reads++;
      if (reads % READS_PER_YIELD === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const measured = window.close(reads, 0);
    if (wrong > 0) throw new Error(`modeled: ${wrong} cached reads returned another id's model`);
    const note = `one op = a cached read of one of ${MODEL_COUNT} models (cached.resolved({ id }).read()); every read held its own id`;
    return { ok: true, ...measured, note };
  } finally {
    await cached.close();
    for (const batch of batches(ids, TRANSACTION_SIZE)) {
      await models.inTransaction(batch.map((id) => models.resolved({ id }).deleteOp()));
    }
  }
}

async function contendedUpdates(m: Packages, clients: Client[], spec: CellSpec): Promise<CellResult> {
  const { modelSpec, modeled, jsonSerializer } = m.modeled;
  const counterSpec = modelSpec({
    path: `${cellBase(spec)}/counter`,
    serializer: jsonSerializer<BenchModel>(),
  });
  const [first] = clients as [Client, ...Client[]];
  await modeled(first, counterSpec).set(benchModel('counter'));
  const recorder = new LatencyRecorder();
  let updates = 0;
  let retries = 0;
  let retriesAtOpen = 0;
  let stopped = false;
  let failure: unknown;
  const sessions = clients.map(async (client) => {
    const counter = modeled(client, counterSpec).versioned();
    try {
      while (!stopped) {
        const began = process.hrtime.bigint();
        for (;;) {
          const { model, version } = await counter.read();
          try {
            await counter.update({ model: { ...model, count: model.count + 1 }, version });
            break;
          } catch (error) {
            if ((error as { code?: unknown } | null)?.code !== 'BADVERSION') throw error;
            retries++;
          }
        }
        updates++;
        recorder.record(began);
      }
    } catch (error) {
      failure ??= error;
    }
  });
  const measured = await timedWindow(
    spec,
    () => updates,
    () => {
      retriesAtOpen = retries;
      recorder.recording = true;
    },
  );
  recorder.recording = false;
  const windowRetries = retries - retriesAtOpen;
  stopped = true;
  await withTimeout(Promise.all(sessions), 10_000, 'modeled: the sessions stopping');
  if (failure !== undefined) throw new Error(`modeled: a session failed: ${message(failure)}`);
  const counter = modeled(first, counterSpec);
  const finalCount = (await counter.read()).count;
  await counter.delete();
  if (finalCount !== updates)
    throw new Error(`modeled: the count is ${finalCount} after ${updates} updates went through`);
  const perUpdate = measured.ops === 0 ? 0 : windowRetries / measured.ops;
  const note =
    'one op = a versioned read-modify-write that went through, two sessions contending (percentiles: first ' +
    `read to its write); retries per update ${perUpdate.toFixed(2)} (${windowRetries} ` +
    `BadVersion in the window); final count ${finalCount} = every update`;
  return { ok: true, ...measured, latency: recorder.summary(), note };
}

export async function runModeled(spec: CellSpec): Promise<CellResult> {
  const m = await loadModeled();
  const sessions = spec.scenario === 'modeledUpdate' ? 2 : 1;
  const clients = await Promise.all(
    Array.from({ length: sessions }, () =>
      m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 }),
    ),
  );
  try {
    return spec.scenario === 'modeledUpdate'
      ? await contendedUpdates(m, clients, spec)
      : await cachedReads(m, clients[0] as Client, spec);
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
