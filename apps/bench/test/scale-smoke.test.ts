/**
 * The scale scenarios at their smallest sizes, in two bench runs as a user starts them (each against an
 * embedded server of its own): sessions@1000, then cacheScale@10000 and watchRestore@10000 on one tree. Checks
 * (ours, node-zookeeper-client, the Java client and Curator where each applies) that every contender that ran completed its cells with figures above zero, every watch fired once after the
 * reconnect, and the report has the scale tables, the slope lines and the chart. No assertion on time or on
 * who wins.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supports } from '../src/contenders/index.js';
import type { RunReport } from '../src/report/model.js';
import type { ContenderId } from '../src/types.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const outBase = mkdtempSync(join(tmpdir(), 'zkwire-bench-scale-'));

interface BenchRun {
  exitCode: number | null;
  stderr: string;
  dir: string;
}

async function bench(name: string, args: string[]): Promise<BenchRun> {
  const out = join(outBase, name);
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules/tsx/dist/cli.mjs'),
      ...['--tsconfig', 'apps/bench/tsconfig.json', 'apps/bench/src/main.ts'],
      ...args,
      ...['--rounds', '1', '--duration', '2000', '--out', out],
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const stamps = (() => {
    try {
      return readdirSync(out);
    } catch {
      return [];
    }
  })();
  return { exitCode, stderr, dir: stamps.length === 1 ? join(out, stamps[0] as string) : '' };
}

let sessions: BenchRun;
let trees: BenchRun;

beforeAll(async () => {
  sessions = await bench('sessions', [
    '--scenario',
    'sessions',
    '--sizes',
    '1000',
    '--contenders',
    'ours,nzc,java',
  ]);
  trees = await bench('trees', [
    ...['--scenario', 'cacheScale,watchRestore', '--sizes', '10000'],
    ...['--contenders', 'ours,nzc,curator,java'],
  ]);
}, 360_000);

afterAll(() => rmSync(outBase, { recursive: true, force: true }));

const report = (run: BenchRun) =>
  JSON.parse(readFileSync(join(run.dir, 'results.json'), 'utf8')) as RunReport;
const ran = (r: RunReport) =>
  Object.entries(r.contenders).flatMap(([id, s]) => (s.available ? [id as ContenderId] : []));

/** Every contender that ran and supports the case: its row, checked to have no failure. */
function rows(r: RunReport, key: string) {
  const summary = r.cases.find((c) => c.case.key === key);
  expect(summary, `${key} in ${r.cases.map((c) => c.case.key)}`).toBeDefined();
  const ids = ran(r).filter((id) => summary && supports(id, summary.case));
  expect(ids).toContain('ours');
  return ids.map((id) => {
    const row = summary?.contenders.find((c) => c.contender === id);
    expect(row?.failure, `${id} in ${key}`).toBeUndefined();
    return { id, figures: row?.scale ?? {}, time: row?.timeMs?.median ?? 0 };
  });
}

describe('the scale scenarios at their smallest sizes', () => {
  it('both runs exit 0 and write their results', () => {
    for (const run of [sessions, trees]) {
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(run.dir).not.toBe('');
    }
  });

  it('sessions@1000: ours and nzc connect every session, with memory and idle CPU per session', () => {
    const r = report(sessions);
    const measured = rows(r, 'sessions@1000');
    expect(measured.map((m) => m.id)).toEqual(expect.arrayContaining(['ours', 'node-zookeeper-client']));
    if (r.contenders.java?.available) expect(measured.map((m) => m.id)).toContain('java');
    for (const { id, figures, time } of measured) {
      expect(time, id).toBeGreaterThan(0);
      expect(figures.rssPerSession?.median ?? 0, id).toBeGreaterThan(0);
      expect(figures.heapPerSession?.median ?? 0, id).toBeGreaterThan(0);
      // a short idle window may see no ping at all, and a JVM's CPU clock ticks in 10 ms steps: 0 is a figure
      expect(figures.idleCpuMsPerS?.median ?? -1, id).toBeGreaterThanOrEqual(0);
    }
  });

  it('cacheScale@10000: ours and Curator load the tree and absorb the writers’ changes', () => {
    const r = report(trees);
    const measured = rows(r, 'cacheScale@10000');
    if (r.contenders.curator?.available) expect(measured.map((m) => m.id)).toContain('curator');
    for (const { id, figures, time } of measured) {
      expect(time, id).toBeGreaterThan(0);
      expect(figures.heapPerNode?.median ?? 0, id).toBeGreaterThan(0);
      expect(figures.eventsPerSec?.median ?? 0, id).toBeGreaterThan(0);
      expect(figures.writesPerSec?.median ?? 0, id).toBeGreaterThan(0);
      expect(figures.lagGrows, `${id}: lag trend`).toBeDefined();
    }
  });

  it('watchRestore@10000: every watch fires once after the reconnect, SetWatches frames seen', () => {
    const r = report(trees);
    const measured = rows(r, 'watchRestore@10000');
    expect(measured.map((m) => m.id)).toEqual(expect.arrayContaining(['ours', 'node-zookeeper-client']));
    if (r.contenders.java?.available) expect(measured.map((m) => m.id)).toContain('java');
    for (const { id, figures, time } of measured) {
      expect(time, id).toBeGreaterThan(0);
      expect(figures.firedOnce?.median, id).toBe(10_000);
      expect(figures.setWatchesFrames?.median ?? 0, id).toBeGreaterThan(0);
    }
  });

  it('reports the scale tables, the slope of each scenario and a chart against size', () => {
    for (const [run, scenarios] of [
      [sessions, ['sessions']],
      [trees, ['cacheScale', 'watchRestore']],
    ] as const) {
      const md = readFileSync(join(run.dir, 'report.md'), 'utf8');
      const svg = readFileSync(join(run.dir, 'chart.svg'), 'utf8');
      expect(md).toContain('## Cost against size');
      for (const scenario of scenarios) {
        expect(md).toMatch(new RegExp(`- ${scenario} \\w+, ours: no slope \\(one size\\)`));
        expect(svg).toContain(`${scenario}: `);
        expect(svg).toContain('against size (log-log)');
      }
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    }
  });
});
