import { describe, expect, it } from 'vitest';
import { expandCases } from '../scenarios/catalog.js';
import { type Observation, summarize } from '../stats.js';
import { checkTargets, loadTargets } from '../targets.js';
import type { CellResult, ContenderId } from '../types.js';
import { renderTable } from './format.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';
import { renderSvg } from './svg.js';

const result = (opsPerSec: number, p50?: number): CellResult => ({
  ok: true,
  ops: opsPerSec,
  elapsedMs: 1000,
  cpuUs: opsPerSec * 5,
  errors: 0,
  ...(p50 ? { latency: { count: 100, p50, p90: 2 * p50, p99: 3 * p50, p999: 4 * p50, max: 5 * p50 } } : {}),
});
const cases = expandCases(['getData', 'watch'], { quick: false, inFlight: [1000] });
const cell = (caseKey: string, contender: ContenderId, r: CellResult): Observation => ({
  round: 1,
  caseKey,
  contender,
  result: r,
});
const observations = [
  cell('getData@1000', 'ours', result(30_000)),
  cell('getData@1000', 'raw', result(29_000)),
  cell('getData@1000', 'node-zookeeper-client', { ok: false, error: 'rc=-4 connection loss' }),
  cell('watch', 'ours', result(2_000, 150)),
  cell('watch', 'raw', result(2_100, 140)),
];
const contenders: ContenderId[] = ['ours', 'raw', 'node-zookeeper-client'];
const summaries = summarize(cases, contenders, observations);
const options = {
  quick: true,
  rounds: 1,
  durationMs: 500,
  warmupMs: 250,
  sessionDurationMs: 500,
  dataSize: 100,
  scenarios: ['getData', 'watch'],
  turnMs: 400,
  openLoopTurnMs: 400,
  turnGapMs: 250,
  turnWarmupMs: 200,
};
const report: RunReport = {
  stamp: '2026-01-01T00-00-00Z',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  command: 'npm run bench -- --quick',
  machine: { cpus: 2, cpuModel: 'Test CPU', node: 'v20', platform: 'linux-x64', loadAverage: [0.5, 1] },
  server: { description: 'embedded', version: '3.9.5', pinning: 'not pinned' },
  options,
  contenders: {
    ours: { available: true, detail: 'ours' },
    raw: { available: true, detail: 'raw' },
    'node-zookeeper-client': { available: true, detail: 'nzc' },
    java: { available: false, reason: 'no JDK here' },
  },
  cases: summaries,
  saturation: [],
  targets: checkTargets(summaries, loadTargets()),
  observations,
  notes: ['a note'],
};

describe('reports', () => {
  it('Markdown: the run, a row per contender, ratios, failures, targets and why a contender did not run', () => {
    const md = renderMarkdown(report);
    expect(md).toContain(
      '- Command: `npm run bench -- --quick` (**quick run**: a smoke test, not a measurement)',
    );
    expect(md).toContain('| ours (@zkwire/zk-wire-client) | 30,000 | 5.00 |  |');
    expect(md).toContain('| raw limit | 29,000 | 5.00 | 1.03× |');
    expect(md).toContain('| node-zookeeper-client | failed: rc=-4 connection loss |  |  |');
    expect(md).toContain('| getData@1000: ops/s ours / ceiling >= 0.95 | 1.03; ceiling: raw | met |');
    expect(md).not.toContain('latency50');
    expect(md).toContain('| ours (@zkwire/zk-wire-client) | 2,000 | 5.00 | 150 | 300 | 450 | 600 |');
    expect(md).toContain('- Java client (official): **not run**: no JDK here');
    expect(md).toContain('**Indicative only:** 1 round(s)');
    expect(md).toContain('Chart: [chart.svg](chart.svg)');
    expect(renderMarkdown(report, false)).not.toContain('chart.svg');
  });

  it('table: the same figures as plain text', () => {
    const text = renderTable(report);
    expect(text).toMatch(/raw limit\s+29,000\s+5\.00\s+1\.03×/);
    expect(text).toContain('  ours / ceiling (raw): 1.03×');
    expect(text).toContain('[met] getData@1000: ops/s ours / ceiling >= 0.95: 1.03; ceiling: raw');
    expect(text).toContain('  java: no JDK here');
  });

  it('SVG: two bars per successful contender and case, p50 to p99 for latency cases', () => {
    const svg = renderSvg(report);
    expect(svg).toContain('>30,000 ops/s</text>');
    expect(svg).toContain('>p50 150 µs, p99 450</text>');
    expect(svg).not.toContain('NaN');
    expect(svg.match(/<rect x=/g)).toHaveLength(2 * (2 + 2));
  });
});
