/**
 * The bench (`npm run bench`): names or starts a server, prepares every contender, measures every case for
 * every contender in rounds (one child process per cell), then prints the table and writes results.json,
 * report.md and chart.svg under apps/bench/results/<stamp>/ (and RESULTS.md with --write-results).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contenders, supports } from './contenders/index.js';
import { BASELINE_REV_ENV } from './contenders/ours.js';
import { createFixtures, removeFixtures } from './fixtures.js';
import { message } from './measure/window.js';
import { type BenchOptions, parseOptions, usage } from './options.js';
import { renderTable } from './report/format.js';
import { renderMarkdown, writeResultsFile } from './report/markdown.js';
import type { ContenderStatus, RunReport, Saturation } from './report/model.js';
import { renderSvg } from './report/svg.js';
import { measure, type Run } from './rounds.js';
import { expandCases } from './scenarios/catalog.js';
import { openServer } from './server.js';
import { type Observation, summarize } from './stats.js';
import { checkTargets, loadTargets } from './targets.js';
import type { ContenderId } from './types.js';

const SCALE_SERVER_HEAP_MB = 2_048;
const resultsBase = fileURLToPath(new URL('../results', import.meta.url));
const log = (line: string) => {
  process.stderr.write(`${line}\n`);
};

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
  // the Java client's jars follow the server's version (@zkwire/testing's findZooKeeper reads it)
  if (options.zkVersion) process.env.ZKWIRE_ZK_VERSION = options.zkVersion;
  if (options.baseline) process.env[BASELINE_REV_ENV] = options.baseline;
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
  const server = await openServer(
    options.connect
      ? { connect: options.connect }
      : {
          ...(options.zkVersion ? { zkVersion: options.zkVersion } : {}),
          // a million-node tree, or ten thousand sessions, outgrow the server's default 128 MB heap
          ...(cases.some((c) => c.kind === 'scale') ? { heapMb: SCALE_SERVER_HEAP_MB } : {}),
        },
  );
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
    for (const { result: r, caseKey, round, contender } of observations) {
      const cell = `${caseKey}, round ${round}, ${contender}`;
      if (r.ok && r.note) notes.push(`${cell}: ${r.note}`);
      if (r.ok && r.lostTurns)
        notes.push(`${cell}: ${r.lostTurns} turn(s) lost to a busy event loop, left out`);
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
    log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
