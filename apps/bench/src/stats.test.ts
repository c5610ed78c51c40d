import { describe, expect, it } from 'vitest';
import type { BenchCase } from './scenarios/catalog.js';
import { median, medianInterval, type Observation, summarize } from './stats.js';
import type { CellResult, ContenderId } from './types.js';

const getData: BenchCase = {
  key: 'getData@256',
  scenario: 'getData',
  kind: 'throughput',
  op: 'getData',
  inFlight: 256,
  title: '',
};

const ok = (opsPerSec: number, extra: Partial<Extract<CellResult, { ok: true }>> = {}): CellResult => ({
  ok: true,
  ops: opsPerSec,
  elapsedMs: 1000,
  cpuUs: opsPerSec * 10,
  errors: 0,
  ...extra,
});
const obs = (
  round: number,
  contender: ContenderId,
  result: CellResult,
  caseKey = getData.key,
): Observation => ({
  round,
  caseKey,
  contender,
  result,
});

describe('median and its interval', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('gives no interval below 6 values, and order statistics that cover 95% from there', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([6, 1, 5, 2, 4, 3])).toEqual({ low: 1, high: 6, count: 6 });
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(medianInterval(twenty)).toEqual({ low: 6, high: 15, count: 20 });
  });
});

describe('summarize', () => {
  it('pairs turns cycle by cycle when both took turns, skipping lost ones, and rounds otherwise', () => {
    // the machine halves its speed in the middle cycle: each cycle's ratio stays 0.9
    const observations = [
      obs(1, 'ours', ok(750, { turnRates: [900, 450, 900, 0] })),
      obs(1, 'raw', ok(833, { turnRates: [1000, 500, 1000, 800] })),
      obs(1, 'java', ok(800)),
    ];
    const [summary] = summarize([getData], ['ours', 'raw', 'java'], observations);
    expect(summary?.vs.opsPerSec?.raw).toMatchObject({ median: 0.9, min: 0.9, max: 0.9 });
    expect(summary?.vs.opsPerSec?.java?.median).toBeCloseTo(750 / 800);
    expect(summary?.ceiling).toBe('raw');
  });

  it('takes medians and min-max over rounds, and says why a contender has no figures', () => {
    const observations = [
      obs(1, 'ours', ok(100)),
      obs(2, 'ours', ok(300)),
      obs(3, 'ours', ok(200)),
      obs(1, 'node-zookeeper-client', { ok: false, error: 'rc=-4 connection loss' }),
    ];
    const [summary] = summarize([getData], ['ours', 'node-zookeeper-client', 'java'], observations);
    const [ours, nzc, java] = summary?.contenders ?? [];
    expect(ours?.opsPerSec).toEqual({ median: 200, min: 100, max: 300 });
    expect(ours?.cpuUsPerOp?.median).toBe(10);
    expect(nzc).toMatchObject({ rounds: 0, failure: 'rc=-4 connection loss' });
    expect(java).toMatchObject({ unsupported: true });
  });

  it('flags open-loop cells that fell behind their rate, and pairs p99s turn by turn', () => {
    const latency: BenchCase = {
      key: 'latency50',
      scenario: 'latency50',
      kind: 'latency',
      inFlight: 1,
      title: '',
    };
    const lat = (p99: number) => ({ count: 10, p50: 1, p90: 2, p99, p999: 4, max: 5 });
    const observations: Observation[] = [
      {
        ...obs(1, 'ours', ok(900, { latency: lat(110), turnP99Us: [110, 220] }), 'latency50'),
        rate: 1000,
      },
      {
        ...obs(1, 'raw', ok(1000, { latency: lat(100), turnP99Us: [100, 200] }), 'latency50'),
        rate: 1000,
      },
    ];
    const [summary] = summarize([latency], ['ours', 'raw'], observations);
    expect(summary?.contenders[0]?.fellBehind).toBe(1);
    expect(summary?.contenders[1]?.fellBehind).toBeUndefined();
    expect(summary?.vs.p99?.raw?.median).toBeCloseTo(1.1);
    expect(summary?.rate?.median).toBe(1000);
    expect(summary?.ceiling).toBeUndefined();
  });

  it('memory cells: heap per unit is the median try, RSS the first, and they are compared, not ops', () => {
    const memory: BenchCase = {
      key: 'memoryWatches@100',
      scenario: 'memoryWatches',
      kind: 'memory',
      inFlight: 100,
      title: '',
    };
    const tries = (heap: number[], rss: number[]) =>
      ok(3, { memory: { units: 100, heapBytes: heap, rssBytes: rss } });
    const observations = [
      obs(1, 'ours', tries([10_000, 30_000, 20_000], [50_000, 1_000, 1_000]), memory.key),
      obs(1, 'node-zookeeper-client', tries([40_000, 40_000, 40_000], [100_000, 0, 0]), memory.key),
    ];
    const [summary] = summarize([memory], ['ours', 'node-zookeeper-client'], observations);
    expect(summary?.contenders[0]?.heapPerUnit?.median).toBe(200);
    expect(summary?.contenders[0]?.rssPerUnit?.median).toBe(500);
    expect(summary?.contenders[0]?.opsPerSec).toBeUndefined();
    expect(summary?.vs.heapPerUnit?.['node-zookeeper-client']?.median).toBe(0.5);
    expect(summary?.vs.opsPerSec).toBeUndefined();
  });
});
