import { describe, expect, it } from 'vitest';
import type { BenchCase } from './scenarios.js';
import { fellBehind, median, type Observation, openLoopSummary, summarize } from './stats.js';
import type { CellResult, ContenderId } from './types.js';

const getData: BenchCase = {
  key: 'getData@1000',
  scenario: 'getData',
  kind: 'throughput',
  op: 'getData',
  inFlight: 1000,
  title: 'getData',
};

const ok = (opsPerSec: number, cpuUsPerOp = 10): CellResult => ({
  ok: true,
  ops: opsPerSec,
  elapsedMs: 1000,
  cpuUs: opsPerSec * cpuUsPerOp,
  errors: 0,
});

const obs = (round: number, contender: ContenderId, result: CellResult): Observation => ({
  round,
  caseKey: getData.key,
  contender,
  result,
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
});

describe('summarize', () => {
  it('pairs turns cycle by cycle when both took turns, and falls back to the round when not', () => {
    const turns = (rates: number[]): CellResult => ({
      ...(ok(1000) as Extract<CellResult, { ok: true }>),
      turnRates: rates,
    });
    // The machine halves its speed in the middle cycle: each cycle's ratio stays 0.9.
    const observations = [
      obs(1, 'ours', turns([900, 450, 900])),
      obs(1, 'raw-paced', turns([1000, 500, 1000])),
      obs(1, 'java', ok(800)),
    ];
    const [summary] = summarize([getData], ['ours', 'raw-paced', 'java'], observations);
    expect(summary?.oursVs['raw-paced']).toMatchObject({ median: 0.9, min: 0.9, max: 0.9 });
    // Java gave no turns: one ratio for the round, from the rates over the whole cell.
    expect(summary?.oursVs.java?.median).toBeCloseTo(1000 / 800);
  });

  it("pairs ours' CPU per op with the raw limit's turn by turn", () => {
    const turns = (cpuUsPerOp: number[]): CellResult => ({
      ...(ok(1000) as Extract<CellResult, { ok: true }>),
      turnRates: cpuUsPerOp.map(() => 1000),
      turnCpuUsPerOp: cpuUsPerOp,
    });
    // The server slows in the middle cycle and both spend more per op; a lost turn (0) is left out.
    const observations = [obs(1, 'ours', turns([6, 12, 0, 6])), obs(1, 'raw', turns([4, 8, 4, 3]))];
    const [summary] = summarize([getData], ['ours', 'raw'], observations);
    expect(summary?.oursCpuVsRaw).toMatchObject({ median: 1.5, min: 1.5, max: 2 });
  });
  it('takes ratios within each round, against the fastest other contender over the run, then their median', () => {
    // Round 2 is twice as fast for everyone (a quiet machine): per-round ratios stay the same.
    const observations = [
      obs(1, 'ours', ok(900)),
      obs(1, 'raw', ok(1000, 1)),
      obs(1, 'node-zookeeper-client', ok(450)),
      obs(2, 'ours', ok(1800)),
      obs(2, 'raw', ok(2000, 1)),
      obs(2, 'node-zookeeper-client', ok(900)),
      obs(3, 'ours', ok(1000)),
      obs(3, 'raw', ok(1000, 1)),
      obs(3, 'node-zookeeper-client', ok(1250)),
    ];
    const [summary] = summarize([getData], ['ours', 'raw', 'node-zookeeper-client'], observations);
    // raw is the fastest other (median 1,000 against 900): ours / raw per round is 0.9, 0.9, 1.0
    expect(summary?.ceilingContender).toBe('raw');
    expect(summary?.oursVsCeiling).toEqual({ median: 0.9, min: 0.9, max: 1 });
    expect(summary?.oursVs.raw?.median).toBeCloseTo(0.9);
    expect(summary?.oursVs['node-zookeeper-client']).toEqual({ median: 2, min: 0.8, max: 2 });
    const ours = summary?.contenders.find((c) => c.contender === 'ours');
    expect(ours?.opsPerSec).toEqual({ median: 1000, min: 900, max: 1800 });
    expect(ours?.cpuUsPerOp?.median).toBe(10);
    expect(summary?.contenders.find((c) => c.contender === 'raw')?.cpuUsPerOp?.median).toBe(1);
  });

  it('is not biased low by noise: peers as fast as ours but noisy do not set a per-round best', () => {
    // Ours and two peers all run at 1,000 in the median; the peers' luck differs from round to round. Against
    // the best of each round ours would be 1000 / 1050 (0.95) in the median; against the fastest peer, 1.0.
    const raw = [1100, 900, 1000, 1050, 950];
    const java = [900, 1100, 1000, 950, 1050];
    const observations = [0, 1, 2, 3, 4].flatMap((i) => [
      obs(i + 1, 'ours', ok(1000)),
      obs(i + 1, 'raw', ok(raw[i] as number)),
      obs(i + 1, 'java', ok(java[i] as number)),
    ]);
    const [summary] = summarize([getData], ['ours', 'raw', 'java'], observations);
    expect(summary?.ceilingContender).toBe('raw'); // a tie in medians: the first listed
    expect(summary?.oursVsCeiling?.median).toBe(1);
  });

  it('keeps a failure message when no round succeeded, and marks unsupported cells', () => {
    const observations = [
      obs(1, 'raw', ok(1000)),
      obs(1, 'ours', { ok: false, error: 'boom' }),
      obs(1, 'zookeeper-native', { ok: false, unsupported: true, error: 'no multi' }),
    ];
    const [summary] = summarize([getData], ['ours', 'raw', 'zookeeper-native'], observations);
    const ours = summary?.contenders.find((c) => c.contender === 'ours');
    expect(ours?.failure).toBe('boom');
    expect(ours?.opsPerSec).toBeUndefined();
    expect(summary?.oursVsCeiling).toBeUndefined();
    expect(summary?.contenders.find((c) => c.contender === 'zookeeper-native')?.unsupported).toBe(true);
  });

  it('marks a contender whose every round lost all its turns, and not one that also failed otherwise', () => {
    const lost = { ok: false as const, error: 'every measured turn was lost: ...', turnsLost: true };
    const observations = [
      obs(1, 'ours', ok(1000)),
      obs(1, 'node-zookeeper-client', lost),
      obs(2, 'node-zookeeper-client', lost),
      obs(1, 'java', lost),
      obs(2, 'java', { ok: false, error: 'boom' }),
    ];
    const [summary] = summarize([getData], ['ours', 'node-zookeeper-client', 'java'], observations);
    const of = (id: ContenderId) => summary?.contenders.find((c) => c.contender === id);
    expect(of('node-zookeeper-client')?.turnsLost).toBe(true);
    expect(of('node-zookeeper-client')?.failure).toMatch(/^every measured turn was lost/);
    expect(of('java')?.turnsLost).toBeUndefined();
    expect(of('ours')?.turnsLost).toBeUndefined();
  });
});

describe('latency cells that fell behind', () => {
  const latency: BenchCase = {
    key: 'latency',
    scenario: 'latency',
    kind: 'latency',
    inFlight: 1,
    rate: 2000,
    title: 'l',
  };
  const at = (round: number, contender: ContenderId, opsPerSec: number): Observation => ({
    round,
    caseKey: 'latency',
    contender,
    result: ok(opsPerSec),
  });

  it('counts the rounds that completed under 95% of the target rate, and only those', () => {
    const [s] = summarize(
      [latency],
      ['ours', 'java'],
      [at(1, 'ours', 2000), at(2, 'ours', 1990), at(1, 'java', 1700), at(2, 'java', 2000)],
    );
    expect(s?.contenders.find((c) => c.contender === 'ours')?.fellBehind).toBeUndefined();
    expect(s?.contenders.find((c) => c.contender === 'java')?.fellBehind).toBe(1);
  });

  it('judges each open-loop cell against the rate it was asked for in its round', () => {
    const latency90: BenchCase = {
      ...latency,
      key: 'latency90',
      scenario: 'latency90',
      saturationShare: 0.9,
    };
    delete latency90.rate;
    const cell = (round: number, opsPerSec: number, rate: number): Observation => ({
      round,
      caseKey: 'latency90',
      contender: 'ours',
      result: ok(opsPerSec),
      rate,
    });
    // round 2's server was slower, so its rate was lower: 20,000/s completed there is on time
    const [s] = summarize([latency90], ['ours'], [cell(1, 20_000, 27_000), cell(2, 20_000, 20_500)]);
    expect(s?.contenders[0]?.fellBehind).toBe(1);
    expect(s?.rate).toEqual({ median: 23_750, min: 20_500, max: 27_000 });
    expect(fellBehind(ok(949), 1000)).toBe(true);
    expect(fellBehind(ok(950), 1000)).toBe(false);
    expect(fellBehind(ok(10), undefined)).toBe(false);
    expect(fellBehind(ok(0), 1000)).toBe(true);
    expect(fellBehind({ ok: false, error: 'x' }, 1000)).toBe(false);
  });

  it('never flags throughput cells, which have no target rate', () => {
    const [s] = summarize([getData], ['ours'], [obs(1, 'ours', ok(10))]);
    expect(s?.contenders[0]?.fellBehind).toBeUndefined();
  });
});

describe('openLoopSummary', () => {
  const withP99 = (round: number, contender: ContenderId, p99: number): Observation => ({
    round,
    caseKey: 'latency50',
    contender,
    rate: 10_000,
    result: {
      ok: true,
      ops: 10_000,
      elapsedMs: 1000,
      cpuUs: 1,
      errors: 0,
      latency: { count: 10_000, p50: p99 / 4, p90: p99 / 2, p99, p999: 2 * p99, max: 3 * p99 },
    },
  });

  it("takes ours' p99 over the raw limit's within each round, then the median", () => {
    // a slow round 3 moves both: its ratio stays in line with the others
    const s = openLoopSummary([
      withP99(1, 'ours', 1100),
      withP99(1, 'raw', 1000),
      withP99(1, 'node-zookeeper-client', 5000),
      withP99(2, 'ours', 900),
      withP99(2, 'raw', 1000),
      withP99(3, 'ours', 12_000),
      withP99(3, 'raw', 10_000),
    ]);
    expect(s.oursP99VsRaw?.median).toBeCloseTo(1.1);
    expect(s.oursP99VsRaw?.min).toBeCloseTo(0.9);
    expect(s.oursP99VsRaw?.max).toBeCloseTo(1.2);
    expect(s.rate).toEqual({ median: 10_000, min: 10_000, max: 10_000 });
  });

  it("pairs ours' and the raw limit's p99 turn by turn when both took turns, so one stall moves one pair", () => {
    const inTurns = (
      round: number,
      contender: ContenderId,
      p99: number,
      turnP99Us: number[],
    ): Observation => {
      const o = withP99(round, contender, p99);
      return { ...o, result: { ...(o.result as CellResult & { ok: true }), turnP99Us } };
    };
    // ours stalled in round 1's third turn: its round p99 is 5× the raw limit's, its other turns 1.0–1.1×
    const s = openLoopSummary([
      inTurns(1, 'ours', 50_000, [1000, 1100, 50_000, 1050]),
      inTurns(1, 'raw', 10_000, [1000, 1000, 1000, 1000]),
      inTurns(2, 'ours', 1000, [1000, 0, 1000, 1000]),
      inTurns(2, 'raw', 1000, [1000, 1000, 1000, 1000]),
    ]);
    // pairs: 1.0, 1.1, 50, 1.05 and 1.0, 1.0, 1.0 (the uncounted turn, 0, is left out)
    expect(s.oursP99VsRaw?.median).toBeCloseTo(1.0);
    expect(s.oursP99VsRaw?.max).toBeCloseTo(50);
    expect(s.oursP99VsRaw?.interval).toBeDefined();
    // without turn figures on one side, the round's ratio stands for the round
    const mixed = openLoopSummary([inTurns(1, 'ours', 1200, [1200]), withP99(1, 'raw', 1000)]);
    expect(mixed.oursP99VsRaw).toEqual({ median: 1.2, min: 1.2, max: 1.2 });
  });

  it('leaves out rounds where ours or the raw limit has no latency', () => {
    const failed: Observation = {
      round: 2,
      caseKey: 'latency50',
      contender: 'raw',
      result: { ok: false, error: 'x' },
    };
    const s = openLoopSummary([
      withP99(1, 'ours', 800),
      withP99(1, 'raw', 1000),
      withP99(2, 'ours', 5000),
      failed,
    ]);
    expect(s.oursP99VsRaw).toEqual({ median: 0.8, min: 0.8, max: 0.8 });
    expect(openLoopSummary([withP99(1, 'ours', 800)]).oursP99VsRaw).toBeUndefined();
  });
});
