/**
 * The bench (`npm run bench`): names or starts a server, prepares every contender, measures every case for
 * every contender in rounds (one child process per cell), then prints the table and writes results.json,
 * report.md and chart.svg under apps/bench/results/<stamp>/ (and RESULTS.md with --write-results).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prepared } from './contenders/contender.js';
import { contenders, supports } from './contenders/index.js';
import { createFixtures, removeFixtures } from './fixtures.js';
import { message } from './measure/window.js';
import { type BenchOptions, parseOptions, usage } from './options.js';
import { renderMarkdown } from './report/markdown.js';
import type { ContenderStatus, RunReport, Saturation } from './report/model.js';
import { writeResultsFile } from './report/results-file.js';
import { renderSvg } from './report/svg.js';
import { renderTable } from './report/table.js';
import { runCellProcess, StartBarrier } from './run-cell.js';
import { type BenchCase, expandCases } from './scenarios/catalog.js';
import { type BenchServer, openServer } from './server.js';
import { type Observation, summarize } from './stats.js';
import { checkTargets, loadTargets } from './targets.js';
import type { CellResult, CellSpec, ContenderId, FixturePaths, TurnSchedule } from './types.js';

const resultsBase = fileURLToPath(new URL('../results', import.meta.url));
const log = (line: string) => {
  process.stderr.write(`${line}\n`);
};

interface Run {
  options: BenchOptions;
  server: BenchServer;
  paths: FixturePaths;
  ready: Partial<Record<ContenderId, Extract<Prepared, { ok: true }>>>;
}

const rotate = <T>(items: readonly T[], by: number) =>
  items.map((_, i) => items[(i + by) % items.length] as T);

function specOf(
  run: Run,
  benchCase: BenchCase,
  contender: ContenderId,
  cellId: string,
  rate?: number,
): CellSpec {
  const { options, server, paths } = run;
  return {
    contender,
    scenario: benchCase.scenario,
    kind: benchCase.kind,
    ...(benchCase.op && { op: benchCase.op }),
    inFlight: benchCase.inFlight,
    ...(rate && { rate }),
    warmupMs: options.warmupMs,
    durationMs: benchCase.kind === 'session' ? options.sessionDurationMs : options.durationMs,
    connectString: server.connectString,
    paths,
    dataSize: options.dataSize,
    cellId,
  };
}

function progress(round: number, benchCase: BenchCase, id: ContenderId, r: CellResult): void {
  const head = `  r${round} ${benchCase.key.padEnd(20)} ${contenders[id].short.padEnd(9)}`;
  if (!r.ok) log(`${head} ${r.unsupported ? 'n/a' : 'FAILED'}: ${r.error}`);
  else if (r.memory) {
    const { heapBytes, units } = r.memory;
    log(`${head} heap ${heapBytes.map((b) => Math.round(b / units)).join(' / ')} B/unit (tries)`);
  } else {
    const perSec = Math.round((r.ops * 1000) / r.elapsedMs).toLocaleString('en-US');
    const cpu = (r.cpuUs / Math.max(r.ops, 1)).toFixed(2);
    const p = r.latency ? `  p50 ${r.latency.p50} µs  p99 ${r.latency.p99} µs` : '';
    log(`${head} ${perSec.padStart(9)} ops/s  ${cpu.padStart(7)} µs/op CPU${p}`);
  }
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
      const spec = {
        ...specOf(run, benchCase, id, `${cellId}${id.slice(0, 4)}`, rate),
        turns: { ...schedule, index },
      };
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

async function measure(run: Run, cases: BenchCase[], ids: ContenderId[], saturations: Saturation[]) {
  const observations: Observation[] = [];
  const { rounds } = run.options;
  for (let round = 1; round <= rounds; round++) {
    let roundSaturation: Saturation | undefined;
    for (const [index, benchCase] of cases.entries()) {
      const cellId = `r${round}c${index}`;
      // rotated, so that no "who runs first after a pause" effect favours one contender
      const order = rotate(ids, round + index).filter((id) => supports(id, benchCase));
      const record = (id: ContenderId, result: CellResult, rate?: number) => {
        observations.push({ round, caseKey: benchCase.key, contender: id, result, ...(rate && { rate }) });
        progress(round, benchCase, id, result);
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
      if (benchCase.kind === 'throughput' || benchCase.kind === 'latency') {
        for (const { id, result } of await inTurns(run, benchCase, order, cellId, rate))
          record(id, result, rate);
        continue;
      }
      for (const id of order) {
        const spec = specOf(run, benchCase, id, `${cellId}${id.slice(0, 4)}`);
        // a memory cell arms 10,000 watches a few times over: minutes on a slow machine
        const timeoutMs = benchCase.kind === 'memory' ? 600_000 : spec.warmupMs + spec.durationMs + 60_000;
        record(
          id,
          await runCellProcess(run.server.clientPrefix, run.ready[id]?.command(spec) ?? [], timeoutMs),
        );
      }
    }
  }
  return observations;
}

async function main(argv: string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${message(error)}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  // @zkwire/testing reads the version for the embedded server and for the Java client's jars alike
  if (options.zkVersion) process.env.ZKWIRE_ZK_VERSION = options.zkVersion;
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const stamp = startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const cases = expandCases(options.scenarios, options);
  const statuses: Partial<Record<ContenderId, ContenderStatus>> = {};
  const ready: Run['ready'] = {};
  // a contender that supports none of the cases (Curator without recipes) is not even prepared
  for (const id of options.contenders.filter((c) => cases.some((k) => supports(c, k)))) {
    const prepared = await contenders[id].prepare(log);
    if (prepared.ok) ready[id] = prepared;
    else log(`${id}: not run: ${prepared.reason}`);
    statuses[id] = prepared.ok
      ? { available: true, detail: prepared.detail }
      : { available: false, reason: prepared.reason };
  }
  const ids = options.contenders.filter((id) => ready[id]);
  log(options.connect ? `using ${options.connect}` : 'starting an embedded ZooKeeper ...');
  const server = await openServer(options.connect ? { connect: options.connect } : {});
  const notes: string[] = [];
  try {
    log(`${server.description}, ZooKeeper ${server.version} at ${server.connectString}; ${server.pinning}`);
    const withTree = cases.some((c) => c.scenario.startsWith('cache') || c.kind === 'memory');
    const paths = await createFixtures(
      server.connectString,
      stamp.replace(/[^0-9TZ]/g, ''),
      options.dataSize,
      withTree,
    );
    const saturations: Saturation[] = [];
    let observations: Observation[];
    try {
      observations = await measure({ options, server, paths, ready }, cases, ids, saturations);
    } finally {
      const problem = await removeFixtures(server.connectString, paths.root);
      if (problem) notes.push(problem);
    }
    for (const o of observations) {
      if (o.result.ok && o.result.note)
        notes.push(`${o.caseKey}, round ${o.round}, ${o.contender}: ${o.result.note}`);
      if (o.result.ok && o.result.lostTurns)
        notes.push(
          `${o.caseKey}, round ${o.round}, ${o.contender}: ${o.result.lostTurns} turn(s) lost to a busy event loop, left out`,
        );
    }
    const summaries = summarize(cases, ids, observations);
    const report: RunReport = {
      stamp,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: ['npm run bench --', ...argv].join(' '),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        loadAverage: [loadAtStart, loadavg()[0] ?? 0],
      },
      server: { description: server.description, version: server.version, pinning: server.pinning },
      options,
      contenders: statuses,
      cases: summaries,
      saturation: saturations,
      targets: checkTargets(summaries, loadTargets()),
      observations,
      notes,
    };
    const dir = join(resolve(options.outDir ?? resultsBase), stamp);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, 'report.md'), renderMarkdown(report));
    writeFileSync(join(dir, 'chart.svg'), renderSvg(report));
    if (options.writeResults) writeResultsFile(report);
    process.stdout.write(`\n${renderTable(report)}\n`);
    log(
      `\nresults: ${dir}/{results.json,report.md,chart.svg}${options.writeResults ? ' and apps/bench/RESULTS.md' : ''}`,
    );
    // a contender that ran but completed no cell it supports is broken: fail the run
    const broken = ids.filter((id) => {
      const rows = summaries.flatMap((s) => s.contenders.filter((c) => c.contender === id && !c.unsupported));
      return rows.length > 0 && rows.every((c) => c.rounds === 0);
    });
    for (const id of broken) log(`${id} completed no cell`);
    return broken.length > 0 ? 1 : 0;
  } finally {
    await server.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
