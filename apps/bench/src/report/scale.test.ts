import { describe, expect, it } from 'vitest';
import { defaultScenarios, expandCases, quickScenarios } from '../scenarios/catalog.js';
import { type Observation, summarize } from '../stats.js';
import { checkTargets, loadTargets } from '../targets.js';
import type { CellResult, ContenderId } from '../types.js';
import { scaleSeries, scaleVerdicts, slopeLines } from './scale.js';
import { renderSvg } from './svg.js';

/** A scale cell's result whose time is `timeMs` and whose named figures are `figures`. */
const cell = (size: number, timeMs: number, figures: Record<string, number>): CellResult => ({
  ok: true,
  ops: 1,
  errors: 0,
  elapsedMs: timeMs,
  cpuUs: 1,
  scale: { size, timeMs, figures },
});

describe('the scale scenarios in the catalog', () => {
  it('are opt-in: in neither the default run nor --quick', () => {
    for (const name of ['cacheScale', 'sessions', 'watchRestore']) {
      expect(defaultScenarios).not.toContain(name);
      expect(quickScenarios).not.toContain(name);
    }
  });

  it('expand to one case per size, or per --sizes', () => {
    const keys = (sizes?: number[]) =>
      expandCases(['cacheScale', 'sessions'], { quick: false, ...(sizes && { sizes }) }).map((c) => c.key);
    expect(keys()).toEqual([
      'cacheScale@10000',
      'cacheScale@100000',
      'cacheScale@1000000',
      'sessions@1000',
      'sessions@10000',
    ]);
    expect(keys([500])).toEqual(['cacheScale@500', 'sessions@500']);
  });
});

describe('the scale report', () => {
  const cases = expandCases(['sessions', 'cacheScale'], { quick: false, sizes: [1_000, 10_000] });
  const observations: Observation[] = [];
  const add = (caseKey: string, contender: ContenderId, result: CellResult) =>
    observations.push({ round: 1, caseKey, contender, result });
  // ours: linear; nzc: quadratic; at 10,000 ours' cache lag grows
  add('sessions@1000', 'ours', cell(1_000, 100, { connectMs: 100, idleCpuMsPerS: 1, rssPerSession: 5_000 }));
  add(
    'sessions@10000',
    'ours',
    cell(10_000, 1_000, { connectMs: 1_000, idleCpuMsPerS: 10, rssPerSession: 5_000 }),
  );
  add('sessions@1000', 'node-zookeeper-client', cell(1_000, 100, { connectMs: 100, rssPerSession: 10_000 }));
  add(
    'sessions@10000',
    'node-zookeeper-client',
    cell(10_000, 10_000, { connectMs: 10_000, rssPerSession: 10_000 }),
  );
  add('cacheScale@1000', 'ours', cell(1_000, 50, { loadMs: 50, lagGrows: 0, heapPerNode: 300 }));
  add('cacheScale@10000', 'ours', cell(10_000, 500, { loadMs: 500, lagGrows: 1, heapPerNode: 300 }));
  const summaries = summarize(cases, ['ours', 'node-zookeeper-client', 'curator'], observations);

  it('takes the log-log slope of each total cost per contender', () => {
    const connect = scaleSeries(summaries, 'sessions').filter((s) => s.figure === 'connectMs');
    expect(connect.find((s) => s.contender === 'ours')?.slope).toBeCloseTo(1, 10);
    expect(connect.find((s) => s.contender === 'node-zookeeper-client')?.slope).toBeCloseTo(2, 10);
    expect(slopeLines(summaries)).toContain('sessions connectMs, ours: slope 1.00');
  });

  it('judges the lag growth and the linear idle cost on ours', () => {
    const verdicts = scaleVerdicts(summaries);
    expect(verdicts).toContain(
      'cacheScale, ours: the lag grows during the window in cacheScale@10000: missed',
    );
    expect(verdicts).toContain(
      'sessions, ours: idle CPU against sessions slope 1.00 (linear up to 1.15): met',
    );
  });

  it('gives the targets their per-unit figures, and `*@1000` never matches a scale case', () => {
    const checks = checkTargets(summaries, loadTargets());
    expect(checks.filter((c) => c.target.startsWith('sessions@1000:')).map((c) => c.target)).toEqual([
      'sessions@1000: RSS/unit ours / node-zookeeper-client <= 1',
    ]);
    expect(checks.find((c) => c.target.startsWith('sessions@10000:'))).toMatchObject({
      measured: '0.50',
      status: 'met',
    });
  });

  it('draws each scenario against size with log axes, one line per contender', () => {
    const svg = renderSvg({
      stamp: 't',
      options: { rounds: 1 },
      server: { description: '', version: '', pinning: '' },
      cases: summaries,
    } as unknown as Parameters<typeof renderSvg>[0]);
    expect(svg).toContain('sessions: connectMs against size (log-log)');
    expect(svg).toContain('cacheScale: loadMs against size (log-log)');
    // ours and nzc each have a line in the sessions chart, labelled with their slopes
    expect(svg).toContain('>ours, slope 1.00</text>');
    expect(svg).toContain('>nzc, slope 2.00</text>');
    expect(svg).toContain('>1,000</text>');
    expect(svg).toContain('>10,000</text>');
  });
});
