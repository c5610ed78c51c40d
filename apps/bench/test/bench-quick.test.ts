/**
 * Runs a quick bench as CI does, in a child process against an embedded server it starts itself, and checks
 * what it leaves: results.json, report.md and chart.svg, with a row and figures above zero for every contender
 * that ran. No assertion on time or on who wins.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contenders, supports } from '../src/contenders/index.js';
import type { RunReport } from '../src/report/model.js';
import type { ContenderId } from '../src/types.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'zkwire-bench-test-'));
let exitCode: number | null = null;
let stderr = '';
let stdout = '';
let dir = '';

beforeAll(async () => {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules/tsx/dist/cli.mjs'),
      ...['--tsconfig', 'apps/bench/tsconfig.json', 'apps/bench/src/main.ts'],
      ...['--quick', '--scenario', 'getData,watch', '--in-flight', '256', '--out', outDir],
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const stamps = readdirSync(outDir);
  dir = stamps.length === 1 ? join(outDir, stamps[0] as string) : '';
}, 240_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const report = () => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunReport;
const ran = (r: RunReport) =>
  Object.entries(r.contenders).flatMap(([id, s]) => (s.available ? [id as ContenderId] : []));

describe('npm run bench -- --quick', () => {
  it('exits 0 and writes one results folder', () => {
    expect(exitCode, stderr.slice(-2000)).toBe(0);
    expect(dir, `folders in ${outDir}`).not.toBe('');
  });

  it('runs our client, the raw limit and node-zookeeper-client', () => {
    const r = report();
    const ours = r.contenders.ours;
    // a bench in which our own client failed to load proves nothing
    expect(ours?.available, ours && !ours.available ? ours.reason : 'ours missing').toBe(true);
    expect(ran(r)).toEqual(expect.arrayContaining(['raw', 'node-zookeeper-client']));
    expect(ran(r)).not.toContain('curator'); // no recipe scenario: Curator is not even prepared
  });

  it('records ops/s and CPU > 0 for every contender that ran, in every case it supports', () => {
    const r = report();
    expect(r.cases.map((c) => c.case.key)).toEqual(['getData@256', 'watch']);
    for (const summary of r.cases) {
      for (const id of ran(r).filter((c) => supports(c, summary.case))) {
        const row = summary.contenders.find((c) => c.contender === id);
        expect(row?.failure, `${id} in ${summary.case.key}`).toBeUndefined();
        expect(row?.opsPerSec?.median ?? 0, `${id} in ${summary.case.key}`).toBeGreaterThan(0);
        expect(row?.cpuUsPerOp?.median ?? 0, `${id} CPU in ${summary.case.key}`).toBeGreaterThan(0);
        if (summary.case.kind === 'watch') expect(row?.latency?.p50 ?? 0).toBeGreaterThan(0);
      }
    }
  });

  it('writes a Markdown row, a chart bar and a table line for every contender that ran', () => {
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const svg = readFileSync(join(dir, 'chart.svg'), 'utf8');
    const section = md.slice(md.indexOf('### getData@256'));
    for (const id of ran(report())) {
      const row = section.split('\n').find((line) => line.startsWith(`| ${contenders[id].label} |`));
      const ops = Number(row?.split('|')[2]?.trim().split(' ')[0]?.replace(/,/g, ''));
      expect(ops, `${id}: ${row}`).toBeGreaterThan(0);
      expect(svg).toContain(`>${contenders[id].short}</text>`);
    }
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(stdout).toContain('getData@256');
    expect(stdout).toContain('Targets');
  });
});
