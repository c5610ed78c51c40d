import { describe, expect, it } from 'vitest';
import { expandCases } from '../scenarios.js';
import { type Observation, summarize } from '../stats.js';
import { checkTargets } from '../targets.js';
import type { CellResult, ContenderId } from '../types.js';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';
import { renderSvg } from './svg-chart.js';
import { renderTable } from './table.js';

const cases = expandCases(['getData', 'watch'], { quick: true, rate: 2000 });
const contenders: ContenderId[] = ['ours', 'raw', 'node-zookeeper-client', 'zookeeper-native'];

const result = (ops: number, latencyP50?: number): CellResult => ({
  ok: true,
  ops,
  elapsedMs: 1000,
  cpuUs: ops * 5,
  errors: 0,
  ...(latencyP50
    ? {
        latency: {
          count: ops,
          p50: latencyP50,
          p90: 2 * latencyP50,
          p99: 3 * latencyP50,
          p999: 4 * latencyP50,
          max: 9999,
        },
      }
    : {}),
});

const observations: Observation[] = [
  { round: 1, caseKey: 'getData@1000', contender: 'ours', result: result(30_000) },
  { round: 1, caseKey: 'getData@1000', contender: 'raw', result: result(29_000) },
  { round: 1, caseKey: 'getData@1000', contender: 'node-zookeeper-client', result: result(15_000) },
  {
    round: 1,
    caseKey: 'getData@1000',
    contender: 'zookeeper-native',
    result: { ok: false, error: 'rc=-4 connection loss' },
  },
  { round: 1, caseKey: 'watch', contender: 'ours', result: result(2_000, 150) },
  { round: 1, caseKey: 'watch', contender: 'raw', result: result(2_100, 120) },
  { round: 1, caseKey: 'watch', contender: 'node-zookeeper-client', result: result(1_900, 160) },
  { round: 1, caseKey: 'watch', contender: 'zookeeper-native', result: result(1_800, 170) },
];

const summaries = summarize(cases, contenders, observations);
const report: RunReport = {
  stamp: '2026-01-01T00-00-00Z',
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:01:00Z',
  machine: { cpus: 2, cpuModel: 'test cpu', node: 'v20', platform: 'linux-x64' },
  server: { description: 'embedded', version: '3.8.0', pinning: 'server core 0, clients core 1' },
  options: {
    quick: true,
    rounds: 1,
    warmupMs: 1,
    durationMs: 1,
    rate: 2000,
    dataSize: 100,
    scenarios: ['getData', 'watch'],
  },
  contenders: {
    ours: { available: true, detail: 'ours' },
    raw: { available: true, detail: 'raw' },
    'node-zookeeper-client': { available: true, detail: 'nzc' },
    'zookeeper-native': { available: true, detail: 'native' },
    java: { available: false, reason: 'no JDK here' },
  },
  cases: summaries,
  targets: checkTargets(summaries),
  codec: [],
  observations,
  notes: [],
};

describe('reports', () => {
  it('Markdown: a row per contender, ratios, the failure, targets and why a contender did not run', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('| ours (@zkwire/zk-wire-client) | 30,000 | 5.00 |  |');
    expect(md).toContain('| node-zookeeper-client | 15,000 | 5.00 | 2.00× |');
    expect(md).toContain('failed: rc=-4 connection loss');
    expect(md).toContain('ours / ceiling: 1.03×');
    expect(md).toContain('| getData@1000: ours / ceiling >= 0.95 | 1.03 | met |');
    expect(md).toContain('| latency50: p99 ours <= 1.1 x raw limit | - | not measured |');
    expect(md).toContain('**not run**: no JDK here');
    expect(md).toContain('| ours (@zkwire/zk-wire-client) | 2,000 | 5.00 | 150 | 300 | 450 | 600 |');
    expect(md).toContain(
      '| getData@1000: CPU/op ours < 1/3 x node-zookeeper-client | 5.00 vs 5.00 µs | missed |',
    );
  });

  it('Markdown: the server-bound explanation sits right under the targets table', () => {
    const md = renderMarkdown({ ...report, targetsNote: 'the server set the pace' });
    const targets = md.slice(md.indexOf('## Targets'), md.indexOf('## Summary'));
    expect(targets).toContain('| getData@1000: ours / ceiling >= 0.95 | 1.03 | met |');
    expect(targets).toContain('**Why the throughput ratios are capped:** the server set the pace');
    expect(renderTable({ ...report, targetsNote: 'the server set the pace' })).toContain(
      '  note: the server set the pace',
    );
  });

  it('Markdown: a verdict from fewer than 5 rounds is marked indicative', () => {
    expect(renderMarkdown(report)).toContain('**Indicative only:** 1 round(s).');
    const fiveRounds = renderMarkdown({ ...report, options: { ...report.options, rounds: 5 } });
    expect(fiveRounds).not.toContain('Indicative only');
  });

  it("Markdown: the session-setup cells' own window, when they ran with one", () => {
    const withSessions = { ...report.options, scenarios: ['getData', 'session'], sessionDurationMs: 5_000 };
    expect(renderMarkdown({ ...report, options: withSessions })).toContain(
      '1 ms warm-up then 1 ms measured (session setup: 5000 ms).',
    );
    // no session cells, or the same window: nothing to say
    const noSessions = { ...report.options, sessionDurationMs: 5_000 };
    expect(renderMarkdown({ ...report, options: noSessions })).toContain('1 ms warm-up then 1 ms measured.');
    const sameWindow = { ...withSessions, sessionDurationMs: 1 };
    expect(renderMarkdown({ ...report, options: sameWindow })).toContain('1 ms warm-up then 1 ms measured.');
  });

  it('Markdown: the warm-up before the turns, when there was one', () => {
    const inTurns = { ...report.options, turnMs: 400, turnGapMs: 250 };
    const warmed = renderMarkdown({ ...report, options: { ...inTurns, turnWarmupMs: 5_000 } });
    expect(warmed).toContain(
      "taking turns at the server (every contender's loop first runs for 5000 ms at once, unmeasured, an open loop at its share of the rate,",
    );
    const cold = renderMarkdown({ ...report, options: { ...inTurns, turnWarmupMs: 0 } });
    expect(cold).toContain('taking turns at the server: 400 ms turns');
    expect(cold).not.toContain('at once, unmeasured');
  });

  it('Markdown: open-loop turns of their own length, when they differ', () => {
    const inTurns = { ...report.options, durationMs: 8_000, turnMs: 400, turnGapMs: 250 };
    const longer = renderMarkdown({ ...report, options: { ...inTurns, openLoopTurnMs: 2_000 } });
    expect(longer).toContain(
      '400 ms turns with 250 ms between them, one warm-up cycle, then 20 measured cycles',
    );
    expect(longer).toContain('(open-loop cases: 2000 ms turns, 4 measured cycles,');
    const same = renderMarkdown({ ...report, options: { ...inTurns, openLoopTurnMs: 400 } });
    expect(same).not.toContain('open-loop cases:');
  });

  it('open-loop cells: the saturation rate per round, each cell rate and the p99 verdict', () => {
    const openLoop = expandCases(['latency90'], { quick: false, rate: 2000 });
    const at = (round: number, contender: ContenderId, rate: number, p99: number): Observation => ({
      round,
      caseKey: 'latency90',
      contender,
      rate,
      result: result(rate, p99 / 3),
    });
    const cells = [at(1, 'ours', 27_000, 1200), at(1, 'raw', 27_000, 1000), at(2, 'ours', 25_200, 900)];
    cells.push(at(2, 'raw', 25_200, 1000));
    const openSummaries = summarize(openLoop, ['ours', 'raw'], cells);
    const withOpenLoop: RunReport = {
      ...report,
      cases: openSummaries,
      targets: checkTargets(openSummaries),
      observations: cells,
      saturation: [
        { round: 1, contender: 'raw', op: 'getData', inFlight: 256, opsPerSec: 30_000 },
        { round: 2, contender: 'raw', op: 'getData', inFlight: 256, error: 'worker gave no result' },
      ],
    };
    const md = renderMarkdown(withOpenLoop);
    expect(md).toContain('ops/s: r1 30,000, r2 failed (worker gave no result).');
    // The saturation line belongs to the run's header, above the one Contenders section.
    expect(md.split('\n').filter((line) => line === '## Contenders')).toHaveLength(1);
    expect(md.indexOf('- Saturation')).toBeLessThan(md.indexOf('## Contenders'));
    expect(md).toContain("- rate: 26,100 (25,200–27,000) req/s (90% of each round's saturation rate)");
    expect(md).toContain('- ours p99 / raw limit p99: 1.05× (0.90–1.20)');
    expect(md).toContain(
      '| latency90: p99 ours <= 1.1 x raw limit | 1.05 (0.90–1.20): 1,050 vs 1,000 µs, at 26,100/s | met |',
    );
    const text = renderTable(withOpenLoop);
    expect(text).toContain('saturation (greedy raw limit, getData, 256 in flight), ops/s: r1 30,000');
    expect(text).toContain('  ours p99 / raw limit p99: 1.05× (0.90–1.20)');
  });

  it('table: the same figures as plain text', () => {
    const text = renderTable(report);
    expect(text).toMatch(/node-zookeeper-client\s+15,000\s+5\.00\s+2\.00×/);
    expect(text).toContain('[met] getData@1000: ours / ceiling >= 0.95: 1.03');
    expect(text).toContain('java: no JDK here');
  });

  it('SVG: bars for every successful contender, p50/p99 for latency cases', () => {
    const svg = renderSvg(report);
    expect(svg).toContain('>30,000 ops/s</text>');
    expect(svg).toContain('>15,000 ops/s</text>');
    expect(svg).toContain('>p50 150 µs, p99 450</text>');
    expect(svg).not.toContain('NaN');
    // getData: 3 successful contenders; watch: 4; each in both panels
    expect(svg.match(/<rect x=/g)?.length).toBe(2 * (3 + 4));
  });
});
