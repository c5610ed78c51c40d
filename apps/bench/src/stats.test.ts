import { describe, expect, it } from 'vitest';
import type { BenchCase } from './scenarios.js';
import { median, type Observation, summarize } from './stats.js';
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

  it('never flags throughput cells, which have no target rate', () => {
    const [s] = summarize([getData], ['ours'], [obs(1, 'ours', ok(10))]);
    expect(s?.contenders[0]?.fellBehind).toBeUndefined();
  });
});
