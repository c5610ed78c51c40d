/**
 * The modeled scenarios in one short bench run as a user starts it (an embedded server of its own), ours
 * against Curator's curator-x-async: every cell completes with reads or updates counted, every cached read
 * held its own model, the contended counter lost no update, and the report judges the modeledRead targets.
 * No assertion on time or on who wins.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../src/report/model.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'zkwire-bench-modeled-'));

let exitCode: number | null;
let stderr = '';
let report: RunReport;

beforeAll(async () => {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules/tsx/dist/cli.mjs'),
      ...['--tsconfig', 'apps/bench/tsconfig.json', 'apps/bench/src/main.ts'],
      ...['--scenario', 'modeledRead,modeledUpdate', '--contenders', 'ours,curator'],
      ...['--rounds', '1', '--duration', '500', '--out', out],
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const [stamp] = readdirSync(out);
  report = JSON.parse(readFileSync(join(out, stamp as string, 'results.json'), 'utf8')) as RunReport;
}, 300_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The cell of `contender` in `caseKey`, checked to have succeeded with ops and CPU counted. */
function cell(caseKey: string, contender: 'ours' | 'curator') {
  const o = report.observations.find((x) => x.caseKey === caseKey && x.contender === contender);
  expect(o, `${caseKey} ${contender}`).toBeDefined();
  const result = o?.result;
  if (!result?.ok) throw new Error(`${caseKey} ${contender} failed: ${result?.error ?? 'no result'}`);
  expect(result.ops, `${caseKey} ${contender}`).toBeGreaterThan(0);
  expect(result.cpuUs, `${caseKey} ${contender}`).toBeGreaterThan(0);
  return result;
}

describe('the modeled scenarios, ours and Curator', () => {
  it('the run exits 0 with both contenders ready', () => {
    expect(exitCode, stderr.slice(-2000)).toBe(0);
    expect(report.contenders.ours?.available).toBe(true);
    expect(report.contenders.curator?.available, JSON.stringify(report.contenders.curator)).toBe(true);
  });

  it('modeledRead: every cached read of the 10,000 models held its own id', () => {
    for (const contender of ['ours', 'curator'] as const) {
      expect(cell('modeledRead', contender).note).toMatch(/one of 10000 models .*every read held its own id/);
    }
  });

  it('modeledUpdate: the counter is every update that went through, retries counted', () => {
    for (const contender of ['ours', 'curator'] as const) {
      const result = cell('modeledUpdate', contender);
      const [, retries, finalCount] =
        /retries per update (\d+\.\d\d) \(\d+ BadVersion in the window\); final count (\d+) = every update/.exec(
          result.note ?? '',
        ) ?? [];
      expect(retries, `${contender}: ${result.note}`).toBeDefined();
      // the window is part of the cell: warm-up updates count toward the final count too
      expect(Number(finalCount), contender).toBeGreaterThanOrEqual(result.ops);
      expect(result.latency?.count ?? 0, contender).toBeGreaterThan(0);
    }
  });

  it('judges the modeledRead targets against Curator', () => {
    const judged = report.targets.filter((t) => t.target.startsWith('modeledRead:'));
    expect(judged.map((t) => t.target)).toEqual([
      'modeledRead: ops/s ours / curator >= 1',
      'modeledRead: CPU/op ours / curator <= 1',
    ]);
    for (const t of judged) expect(['met', 'missed']).toContain(t.status);
  });
});
