/**
 * The bench app (`npm run bench`): starts or names a server, prepares every contender, measures every case
 * for every contender in interleaved rounds (one child process per cell), then prints the table and writes
 * results.json, report.md and chart.svg under apps/bench/results/<stamp>/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openServer } from './bench-server.js';
import { runCaseInTurns, takesTurns } from './case-in-turns.js';
import { type BenchRun, cellSpec, unsupported } from './cell-spec.js';
import { type BenchOptions, parseOptions, usage } from './cli-options.js';
import type { CodecCase } from './codec-bench.js';
import { commandFor, prepareContenders } from './contenders.js';
import { createFixtures, removeFixtures } from './fixtures.js';
import { summarizeMemory } from './memory-figures.js';
import { Progress } from './progress.js';
import { renderMarkdown } from './report/markdown.js';
import type { RunReport } from './report/model.js';
import { renderSvg } from './report/svg-chart.js';
import { renderTable } from './report/table.js';
import { runWorker } from './run-worker.js';
import { calibrationSpec, openLoopRate, type SaturationMeasurement, saturationFrom } from './saturation.js';
import { type BenchCase, expandCases } from './scenarios.js';
import { type Observation, summarize } from './stats.js';
import { checkTargets, serverBoundNote } from './targets.js';
import { type CellResult, type ContenderId, supports } from './types.js';

const resultsBase = fileURLToPath(new URL('../results', import.meta.url));

function rotate<T>(items: readonly T[], by: number): T[] {
  const n = items.length;
  return items.map((_, i) => items[(i + by) % n] as T);
}

async function measure(
  run: BenchRun,
  contenders: ContenderId[],
  codec: CodecCase[],
  saturation: SaturationMeasurement[],
): Promise<Observation[]> {
  const { options, server, paths, java, progress } = run;
  const cases = expandCases(options.scenarios, options);
  const observations: Observation[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    let roundSaturation: SaturationMeasurement | undefined;
    for (const [index, benchCase] of cases.entries()) {
      if (benchCase.kind === 'codec') {
        await runCodec(codec, options, progress, round);
        continue;
      }
      // Open-loop cells at a share of saturation: measure it once per round, right before the first of them.
      if (benchCase.saturationShare !== undefined && !roundSaturation) {
        roundSaturation = await calibrate(run, round);
        saturation.push(roundSaturation);
      }
      const openLoop = openLoopCellRate(benchCase, roundSaturation);
      const rate = openLoop && 'rate' in openLoop ? openLoop.rate : benchCase.rate;
      const rateError = openLoop && 'error' in openLoop ? openLoop.error : undefined;
      // (a round without a usable saturation rate runs no open-loop cell: each fails with the reason below)
      if (options.turnMs > 0 && takesTurns(benchCase.kind) && rateError === undefined) {
        await runCaseInTurns(run, rotate(contenders, round + index), {
          round,
          index,
          benchCase,
          observations,
          ...(rate ? { rate } : {}),
        });
        continue;
      }
      // Rotating the order keeps any "who runs first after a pause" effect from favouring one contender.
      for (const contender of rotate(contenders, round + index)) {
        const spec = cellSpec(options, server, paths, { round, index, benchCase, contender, rate });
        if (!supports(contender, benchCase.kind)) {
          observations.push({ round, caseKey: benchCase.key, contender, result: unsupported(benchCase) });
          continue;
        }
        if (rateError !== undefined) {
          const result: CellResult = { ok: false, error: rateError };
          observations.push({ round, caseKey: benchCase.key, contender, result });
          continue;
        }
        progress.start(round, options.rounds, benchCase.key, contender);
        const command = commandFor(spec, java);
        // a memory cell arms up to 100,000 watches a few times over: minutes on a slow machine
        const timeoutMs = benchCase.kind === 'memory' ? 600_000 : spec.warmupMs + spec.durationMs + 60_000;
        const result = await runWorker(server.clientPrefix, command, timeoutMs);
        observations.push({ round, caseKey: benchCase.key, contender, result, ...(rate ? { rate } : {}) });
        progress.finish(round, benchCase.key, contender, result);
      }
    }
  }
  return observations;
}

/** The rate of an open-loop case at a share of saturation (undefined for every other case). */
function openLoopCellRate(benchCase: BenchCase, saturation: SaturationMeasurement | undefined) {
  if (benchCase.saturationShare === undefined) return undefined;
  return openLoopRate(saturation, benchCase.saturationShare);
}

/** Runs a round's calibration cell: greedy raw getData at 256 in flight (saturation.ts). Never throws. */
async function calibrate(run: BenchRun, round: number): Promise<SaturationMeasurement> {
  const { options, server, paths, java, progress } = run;
  const { warmupMs, durationMs, dataSize } = options;
  const spec = calibrationSpec(
    { warmupMs, durationMs, dataSize, connectString: server.connectString, paths },
    round,
  );
  const timeoutMs = options.warmupMs + options.durationMs + 60_000;
  const result = await runWorker(server.clientPrefix, commandFor(spec, java), timeoutMs);
  const measured = saturationFrom(round, result);
  progress.log(
    measured.opsPerSec === undefined
      ? `  r${round} saturation: FAILED: ${measured.error ?? ''}`
      : `  r${round} saturation (raw getData, ${spec.inFlight} in flight): ${Math.round(measured.opsPerSec)} ops/s`,
  );
  return measured;
}

async function runCodec(codec: CodecCase[], options: BenchOptions, progress: Progress, round: number) {
  try {
    const { runCodecRound } = await import('./codec-bench.js');
    runCodecRound(codec, options.durationMs);
    for (const c of codec) {
      const g = c.generic.at(-1) ?? 0;
      const f = c.fast.at(-1) ?? 0;
      progress.log(`  r${round} codec: ${c.name}: generic ${Math.round(g)}/s, fast ${Math.round(f)}/s`);
    }
  } catch (error) {
    progress.log(`  r${round} codec: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const stamp = startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const cases = expandCases(options.scenarios, options);
  const progress = new Progress(0);
  const { statuses, java } = await prepareContenders(
    // a contender that supports none of the chosen scenarios (Curator without recipes) is not even prepared
    options.contenders.filter((c) => cases.some((k) => supports(c, k.kind))),
    progress,
    options.oursFrom,
  );
  const runnable = options.contenders.filter((c) => statuses[c]?.available);
  for (const [id, s] of Object.entries(statuses))
    if (!s.available) progress.log(`${id}: not run: ${s.reason}`);

  progress.log(options.connect ? `using ${options.connect}` : 'starting an embedded ZooKeeper ...');
  // 100,000 nodes with a watch each (and the garbage of sessions closing with them) do not fit in 128 MiB:
  // the server would spend the memory cells collecting garbage
  const heapMb = cases.some((c) => c.kind === 'memory') ? 512 : undefined;
  const server = await openServer(
    options.connect
      ? { connect: options.connect, pin: options.pin }
      : {
          pin: options.pin,
          slowServer: options.slowServer,
          fastServer: options.fastServer,
          ...(heapMb ? { heapMb } : {}),
        },
  );
  const notes: string[] = [];
  let exitCode = 0;
  try {
    progress.log(
      `${server.description}, ZooKeeper ${server.version} at ${server.connectString}; ${server.pinning}`,
    );
    const paths = await createFixtures(
      server.connectString,
      stamp.replace(/[^0-9TZ]/g, ''),
      options.dataSize,
      cases.some((c) => c.scenario.startsWith('cache')),
      cases.some((c) => c.kind === 'memory'),
    );
    const wireCases = cases.filter((c) => c.kind !== 'codec');
    const cells = wireCases.reduce((n, c) => n + runnable.filter((r) => supports(r, c.kind)).length, 0);
    const cellProgress = new Progress(cells * options.rounds);
    const codec: CodecCase[] = [];
    const saturation: SaturationMeasurement[] = [];
    let observations: Observation[];
    try {
      observations = await measure(
        { options, server, paths, java, progress: cellProgress },
        runnable,
        codec,
        saturation,
      );
    } finally {
      const problem = await removeFixtures(server.connectString, paths);
      if (problem) notes.push(problem);
    }
    // The cache cells' heap per node and the open-loop cells' send lag (and ours' read-pacing waits) are in
    // their notes: the tables have no column for them.
    const noted = new Set(cases.filter((c) => c.saturationShare !== undefined).map((c) => c.key));
    for (const o of observations) {
      if ((o.caseKey.startsWith('cache') || noted.has(o.caseKey)) && o.result.ok && o.result.note) {
        notes.push(`${o.caseKey}, round ${o.round}, ${o.contender}: ${o.result.note}`);
      }
    }
    const summaries = summarize(
      wireCases.filter((c) => c.kind !== 'memory'),
      runnable,
      observations,
    );
    const memory = summarizeMemory(wireCases, runnable, observations);
    const serverBound = serverBoundNote(summaries);
    const { summarizeCodec } = await import('./codec-bench.js').catch(() => ({ summarizeCodec: () => [] }));
    // A contender that ran but never completed one supported cell means something is broken: say so loudly.
    for (const id of runnable) {
      const mine = [
        ...summaries.flatMap((s) => s.contenders.filter((c) => c.contender === id)),
        ...memory.flatMap((s) =>
          s.contenders.flatMap((c) => (c.contender === id ? [{ ...c, opsPerSec: c.heapPerUnit }] : [])),
        ),
      ];
      // (A contender whose busy event loop overran every turn is measured poorly, not broken: a note suffices.)
      const broken =
        mine.every((c) => !c.opsPerSec) &&
        !mine.every((c) => c.unsupported || ('turnsLost' in c && c.turnsLost));
      if (mine.length > 0 && broken) {
        notes.push(`${id} completed no cell: ${mine.find((c) => c.failure)?.failure ?? ''}`);
        exitCode = 1;
      }
    }
    const report: RunReport = {
      stamp,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        loadAverage: [loadAtStart, loadavg()[0] ?? 0],
      },
      server: { description: server.description, version: server.version, pinning: server.pinning },
      options: {
        quick: options.quick,
        rounds: options.rounds,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        sessionDurationMs: options.sessionDurationMs,
        rate: options.rate,
        dataSize: options.dataSize,
        scenarios: options.scenarios,
        turnMs: options.turnMs,
        openLoopTurnMs: options.openLoopTurnMs,
        turnGapMs: options.turnGapMs,
        turnWarmupMs: options.turnWarmupMs,
      },
      contenders: statuses,
      cases: summaries,
      memory,
      ...(saturation.length > 0 ? { saturation } : {}),
      targets: checkTargets(summaries, memory),
      ...(serverBound ? { targetsNote: serverBound } : {}),
      codec: summarizeCodec(codec),
      observations,
      notes,
    };
    const dir = join(resolve(options.outDir ?? resultsBase), stamp);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, 'report.md'), renderMarkdown(report));
    writeFileSync(join(dir, 'chart.svg'), renderSvg(report));
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(`\n${renderTable(report)}\n`);
    progress.log(`\nresults: ${dir}/{results.json,report.md,chart.svg}`);
    for (const note of notes) progress.log(`note: ${note}`);
  } finally {
    await server.stop();
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
