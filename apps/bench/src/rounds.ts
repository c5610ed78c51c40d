/**
 * The rounds of a run: every case for every contender that supports it, one process per cell. Throughput and
 * open-loop cases run their contenders at once, taking turns at the server; the others one after another. The
 * order of the contenders is rotated from case to case and round to round.
 */
import type { Prepared } from './contenders/contender.js';
import { contenders, supports } from './contenders/index.js';
import type { BenchOptions } from './options.js';
import type { Saturation } from './report/model.js';
import { runCellProcess, StartBarrier } from './run-cell.js';
import { createScaleTree, removeScaleTree } from './scale/tree.js';
import type { BenchCase } from './scenarios/catalog.js';
import type { BenchServer } from './server.js';
import type { Observation } from './stats.js';
import type { CellResult, CellSpec, ContenderId, FixturePaths, TurnSchedule } from './types.js';

const log = (line: string) => {
  process.stderr.write(`${line}\n`);
};

export interface Run {
  options: BenchOptions;
  server: BenchServer;
  paths: FixturePaths;
  ready: Partial<Record<ContenderId, Extract<Prepared, { ok: true }>>>;
}

const rotate = <T>(items: readonly T[], by: number) =>
  items.map((_, i) => items[(i + by) % items.length] as T);

/** A scale cell's window: cacheScale's writers, sessions' idling (the largest tree's cell may be shorter). */
const scaleWindowMs = (options: BenchOptions, size: number) =>
  options.scaleWindowMs ?? (size >= 1_000_000 ? 5_000 : 10_000);
/** A scale cell loads up to a million nodes or opens ten thousand sessions: minutes on a slow machine. */
const SCALE_TIMEOUT_MS = 900_000;

function specOf(
  run: Run,
  benchCase: BenchCase,
  contender: ContenderId,
  cellId: string,
  rate?: number,
): CellSpec {
  const { options, server, paths } = run;
  const { kind, inFlight } = benchCase;
  return {
    contender,
    scenario: benchCase.scenario,
    kind,
    ...(benchCase.op && { op: benchCase.op }),
    inFlight,
    ...(rate && { rate }),
    warmupMs: options.warmupMs,
    durationMs:
      kind === 'session'
        ? options.sessionDurationMs
        : kind === 'scale'
          ? scaleWindowMs(options, inFlight)
          : options.durationMs,
    connectString: server.connectString,
    paths,
    dataSize: options.dataSize,
    cellId: `${cellId}${contender.slice(0, 4)}`,
  };
}

/** The log line of a cell's result. */
function progress(round: number, benchCase: BenchCase, id: ContenderId, r: CellResult): string {
  const head = `  r${round} ${benchCase.key.padEnd(20)} ${contenders[id].short.padEnd(9)}`;
  if (!r.ok) return `${head} ${r.unsupported ? 'n/a' : 'FAILED'}: ${r.error}`;
  if (r.scale) {
    const figures = Object.entries(r.scale.figures).map(
      ([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`,
    );
    return `${head} ${figures.join(', ')}`;
  }
  if (r.memory) {
    const { heapBytes, units } = r.memory;
    return `${head} heap ${heapBytes.map((b) => Math.round(b / units)).join(' / ')} B/unit (tries)`;
  }
  const perSec = Math.round((r.ops * 1000) / r.elapsedMs).toLocaleString('en-US');
  const cpu = (r.cpuUs / Math.max(r.ops, 1)).toFixed(2);
  const p = r.latency ? `  p50 ${r.latency.p50} µs  p99 ${r.latency.p99} µs` : '';
  return `${head} ${perSec.padStart(9)} ops/s  ${cpu.padStart(7)} µs/op CPU${p}`;
}

/** A case's contenders at once, taking turns at the server in the order given. */
async function inTurns(run: Run, benchCase: BenchCase, ids: ContenderId[], cellId: string, rate?: number) {
  const { options } = run;
  const turnMs = benchCase.kind === 'latency' ? options.openLoopTurnMs : options.turnMs;
  const schedule: Omit<TurnSchedule, 'index'> = {
    of: ids.length,
    turnMs,
    gapMs: options.turnGapMs,
    cycles: Math.max(1, Math.ceil(options.durationMs / turnMs)),
    warmUpMs: options.turnWarmupMs,
  };
  const barrier = new StartBarrier(ids.length);
  const timeoutMs = (schedule.cycles + 1) * ids.length * (turnMs + schedule.gapMs) + 60_000;
  return Promise.all(
    ids.map(async (id, index) => {
      const spec = { ...specOf(run, benchCase, id, cellId, rate), turns: { ...schedule, index } };
      const command = run.ready[id]?.command(spec) ?? [];
      return { id, result: await runCellProcess(run.server.clientPrefix, command, timeoutMs, barrier) };
    }),
  );
}

/** The round's saturation rate: greedy raw getData at 256 in flight, alone. */
async function saturation(run: Run, round: number): Promise<Saturation> {
  const calibration: BenchCase = {
    key: 'saturation',
    scenario: 'saturation',
    kind: 'throughput',
    op: 'getData',
    inFlight: 256,
    title: '',
  };
  const [cell] = await inTurns(run, calibration, ['raw'], `r${round}sat`);
  const r = cell?.result;
  if (!r?.ok || r.ops <= 0) return { round, error: r && !r.ok ? r.error : 'no getData completed' };
  const opsPerSec = (r.ops * 1000) / r.elapsedMs;
  log(`  r${round} saturation (raw getData, 256 in flight): ${Math.round(opsPerSec)} ops/s`);
  return { round, opsPerSec };
}

/** Measures every case in every round; `saturations` gets each round's saturation rate. */
export async function measure(run: Run, cases: BenchCase[], ids: ContenderId[], saturations: Saturation[]) {
  const observations: Observation[] = [];
  const { connectString } = run.server;
  // the scale cases' trees, made once per size on first use (cacheScale and watchRestore of a size share one)
  const trees = new Map<number, Promise<string>>();
  const treeOf = (size: number) => {
    let tree = trees.get(size);
    if (!tree) {
      const path = `${run.paths.root}/scale${size}`;
      log(`  making a tree of ${size.toLocaleString('en-US')} nodes (multi batches) ...`);
      tree = createScaleTree(connectString, path, size, run.options.dataSize).then(() => path);
      trees.set(size, tree);
    }
    return tree;
  };
  try {
    for (let round = 1; round <= run.options.rounds; round++) {
      let roundSaturation: Saturation | undefined;
      for (const [index, benchCase] of cases.entries()) {
        const cellId = `r${round}c${index}`;
        // rotated, so that no "who runs first after a pause" effect favours one contender
        const order = rotate(ids, round + index).filter((id) => supports(id, benchCase));
        const record = (id: ContenderId, result: CellResult, rate?: number) => {
          observations.push({ round, caseKey: benchCase.key, contender: id, result, ...(rate && { rate }) });
          log(progress(round, benchCase, id, result));
        };
        let rate = benchCase.rate;
        if (benchCase.saturationShare !== undefined) {
          if (!roundSaturation) saturations.push((roundSaturation = await saturation(run, round)));
          const base = roundSaturation.opsPerSec;
          if (base === undefined) {
            for (const id of order)
              record(id, { ok: false, error: `no saturation rate: ${roundSaturation.error}` });
            continue;
          }
          rate = Math.round(base * benchCase.saturationShare);
        }
        const { kind, scenario, inFlight } = benchCase;
        if (kind === 'throughput' || kind === 'latency') {
          for (const { id, result } of await inTurns(run, benchCase, order, cellId, rate))
            record(id, result, rate);
          continue;
        }
        const scaleTree = kind === 'scale' && scenario !== 'sessions' ? await treeOf(inFlight) : undefined;
        for (const id of order) {
          const spec = { ...specOf(run, benchCase, id, cellId), ...(scaleTree && { scaleTree }) };
          // a memory cell arms 10,000 watches a few times over: minutes on a slow machine
          const timeoutMs =
            kind === 'memory'
              ? 600_000
              : kind === 'scale'
                ? SCALE_TIMEOUT_MS
                : spec.warmupMs + spec.durationMs + 60_000;
          record(
            id,
            await runCellProcess(run.server.clientPrefix, run.ready[id]?.command(spec) ?? [], timeoutMs),
          );
        }
      }
    }
  } finally {
    for (const [size, tree] of trees) {
      const path = await tree.catch(() => undefined);
      if (path) await removeScaleTree(connectString, path, size).catch(() => {});
    }
  }
  return observations;
}
