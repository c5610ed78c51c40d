import { describe, expect, it } from 'vitest';
import { parseOptions } from './cli-options.js';
import { checkMemoryTargets, perUnit, summarizeMemory } from './memory-figures.js';
import { MEMORY_NODES, memoryNodePath, memoryNodePaths } from './memory-tree.js';
import { memoryRows } from './report/memory-rows.js';
import { expandCases } from './scenarios.js';
import type { Observation } from './stats.js';
import type { CellResult, ContenderId, MemoryTries } from './types.js';

const cases = expandCases(['memory'], { quick: false, rate: 2000 });
const contenders: ContenderId[] = ['ours', 'node-zookeeper-client', 'zookeeper-native', 'java'];

const cell = (memory: MemoryTries): CellResult => ({
  ok: true,
  ops: 3,
  elapsedMs: 1000,
  cpuUs: 0,
  errors: 0,
  memory,
});
const watches = (units: number, heap: number[], rss: number[]): CellResult =>
  cell({ units, heapBytes: heap, rssBytes: rss });

describe('memory figures', () => {
  it('per unit: the median of the tries for the heap, the first try for RSS', () => {
    expect(
      perUnit({ units: 1000, heapBytes: [300_000, 100_000, 200_000], rssBytes: [900_000, 0, 0] }),
    ).toEqual({ heap: 200, rss: 900 });
    expect(perUnit({ units: 1000, heapBytes: [], rssBytes: [] })).toBeUndefined();
  });

  it('per unit: the recursive watch, after its events, per try against its own armed figure', () => {
    const figures = perUnit({
      units: 1,
      heapBytes: [1_000, 2_000, 1_500],
      rssBytes: [4_096, 0, 0],
      afterEvents: { events: 1_000, heapBytes: [3_000, 2_000, 2_500], rssBytes: [12_288, 0, 0] },
    });
    expect(figures).toEqual({
      heap: 1_500,
      rss: 4_096,
      afterEvents: { heap: 2_500, rss: 12_288, heapPerEvent: 1, rssPerEvent: 8.192 },
    });
  });

  it('targets: ours the lowest per cell, heap among the clients with a heap state, RSS among all Node clients', () => {
    const observations: Observation[] = [
      { contender: 'ours', result: watches(10_000, [1_500_000], [2_000_000]) },
      { contender: 'node-zookeeper-client', result: watches(10_000, [5_000_000], [1_000_000]) },
      { contender: 'zookeeper-native', result: watches(10_000, [20_000], [3_000_000]) },
      { contender: 'java', result: watches(10_000, [10_000], [10_000]) },
    ].map((o) => ({ ...o, round: 1, caseKey: 'memoryWatches@10000' }) as Observation);
    const summaries = summarizeMemory(cases, contenders, observations);
    const byTarget = Object.fromEntries(checkMemoryTargets(summaries).map((t) => [t.target, t]));
    const heap =
      byTarget[
        'memoryWatches@10000: heap/watch ours the lowest of the Node clients with their state on the heap'
      ];
    expect(heap).toEqual({
      target:
        'memoryWatches@10000: heap/watch ours the lowest of the Node clients with their state on the heap',
      measured: 'ours 150, nzc 500 B',
      status: 'met',
    });
    expect(byTarget['memoryWatches@10000: RSS/watch ours the lowest of the Node clients']?.status).toBe(
      'missed',
    );
    // cells that did not run
    expect(
      byTarget[
        'memoryInFlight@10000: heap/request ours the lowest of the Node clients with their state on the heap'
      ]?.status,
    ).toBe('not measured');
    expect(byTarget['memoryRecursive@100000: heap kept per event handled by ours < 8 B']?.status).toBe(
      'not measured',
    );
  });

  it('targets: met when ours is at or below every other Node client', () => {
    const observations = (
      [
        ['ours', [600_000], [500_000]],
        ['node-zookeeper-client', [1_300_000], [1_200_000]],
        ['zookeeper-native', [600_000], [550_000]],
      ] as const
    ).map(([contender, heap, rss]) => ({
      round: 1,
      caseKey: 'memoryInFlight@10000',
      contender: contender as ContenderId,
      result: watches(10_000, [...heap], [...rss]),
    }));
    const checks = checkMemoryTargets(summarizeMemory(cases, contenders, observations));
    const inFlight = checks.filter((t) => t.target.startsWith('memoryInFlight'));
    expect(inFlight.map((t) => t.status)).toEqual(['met', 'met']);
    expect(inFlight[0]?.measured).toBe('ours 60, nzc 130 B');
    expect(inFlight[1]?.measured).toBe('ours 50, nzc 120, native 55 B');
  });

  it('the recursive cell: kept per event judged, other Node clients shown as n/a with the reason', () => {
    const recursive: CellResult = cell({
      units: 1,
      heapBytes: [2_000],
      rssBytes: [0],
      afterEvents: { events: MEMORY_NODES, heapBytes: [2_002_000], rssBytes: [0] },
    });
    const observations: Observation[] = [
      { round: 1, caseKey: 'memoryRecursive@100000', contender: 'ours', result: recursive },
      {
        round: 1,
        caseKey: 'memoryRecursive@100000',
        contender: 'node-zookeeper-client',
        result: { ok: false, unsupported: true, error: 'node-zookeeper-client has no addWatch' },
      },
    ];
    const summaries = summarizeMemory(cases, contenders, observations);
    const kept = checkMemoryTargets(summaries).find((t) => t.target.startsWith('memoryRecursive'));
    expect(kept).toMatchObject({ measured: '20.00 B', status: 'missed' });
    const table = memoryRows(summaries.find((s) => s.case.memoryCell === 'recursive')!);
    expect(table.header[3]).toBe('heap after 100,000 events, B');
    expect(table.rows[0]).toEqual(['ours (@zkwire/zk-wire-client)', '2,000', '0', '2,002,000', '0', '20.00']);
    expect(table.rows[1]?.[1]).toBe('n/a: node-zookeeper-client has no addWatch');
  });

  it('rows: bytes per unit with the spread over rounds and the heap against ours', () => {
    const observations: Observation[] = [1, 2].flatMap((round) => [
      {
        round,
        caseKey: 'memoryWatches@100000',
        contender: 'ours' as const,
        result: watches(100_000, [10_000_000 * round], [20_000_000]),
      },
      {
        round,
        caseKey: 'memoryWatches@100000',
        contender: 'node-zookeeper-client' as const,
        result: watches(100_000, [45_000_000], [60_000_000]),
      },
      {
        round,
        caseKey: 'memoryWatches@100000',
        contender: 'zookeeper-native' as const,
        result: watches(100_000, [100_000], [25_000_000]),
      },
    ]);
    const summary = summarizeMemory(cases, contenders, observations).find(
      (s) => s.case.key === 'memoryWatches@100000',
    )!;
    const { header, rows } = memoryRows(summary);
    expect(header).toEqual(['contender', 'heap B/watch', 'RSS B/watch', 'heap ÷ ours']);
    expect(rows[0]).toEqual(['ours (@zkwire/zk-wire-client)', '150 (100–200)', '200', '']);
    expect(rows[1]).toEqual(['node-zookeeper-client', '450', '600', '3.00×']);
    // the native package's state is in C: its heap is not set against ours
    expect(rows[2]).toEqual(['zookeeper (native, C client)', '1', '250', 'n/a (C memory: see RSS)']);
    expect(rows[3]?.[0]).toBe('Java client (official), JVM');
    expect(rows[3]?.[1]).toMatch(/^failed: /);
  });
});

describe('memory tree and scenario', () => {
  it('walks parents then their leaves, the same order for every contender', () => {
    expect(memoryNodePath('/t', 0)).toBe('/t/p000');
    expect(memoryNodePath('/t', 1)).toBe('/t/p000/n000');
    expect(memoryNodePath('/t', 999)).toBe('/t/p000/n998');
    expect(memoryNodePath('/t', 1000)).toBe('/t/p001');
    expect(memoryNodePath('/t', MEMORY_NODES - 1)).toBe('/t/p099/n998');
    expect(() => memoryNodePath('/t', MEMORY_NODES)).toThrow(RangeError);
    expect(new Set(memoryNodePaths('/t', MEMORY_NODES)).size).toBe(100_000);
  });

  it('expands into four cells and runs only when named', () => {
    expect(cases.map((c) => [c.key, c.memoryCell, c.inFlight])).toEqual([
      ['memoryWatches@10000', 'watches', 10_000],
      ['memoryWatches@100000', 'watches', 100_000],
      ['memoryRecursive@100000', 'recursive', 100_000],
      ['memoryInFlight@10000', 'inFlight', 10_000],
    ]);
    expect(parseOptions([]).scenarios).not.toContain('memory');
    expect(parseOptions(['--scenario', 'all']).scenarios).not.toContain('memory');
    expect(parseOptions(['--scenario', 'memory']).scenarios).toEqual(['memory']);
    expect(parseOptions(['--scenario', 'all,memory']).scenarios).toContain('memory');
  });
});
