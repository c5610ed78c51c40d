/**
 * From observations (one per round, case and contender) to what the report shows: medians with min-max over
 * rounds, and ours against every other contender. Ratios are taken before the median, pairing figures taken
 * close together: turn by turn where both took turns (two turns a second apart see the same machine), else
 * round by round, since a shared machine moves every contender of a round together.
 */
import { perUnitFigures } from './scale/figures.js';
import type { BenchCase } from './scenarios/catalog.js';
import type { CellResult, ContenderId, LatencySummary } from './types.js';

export interface Observation {
  round: number;
  caseKey: string;
  contender: ContenderId;
  result: CellResult;
  /** open-loop cells: the rate asked for (a share of the round's saturation for latency50/90) */
  rate?: number;
}

/** Where a median may lie: the distribution-free 95% interval between two order statistics. */
export interface MedianInterval {
  low: number;
  high: number;
  count: number;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** ratios from 6 values up */
  interval?: MedianInterval;
}

/** The figures a contender is compared on. */
export const figures = ['opsPerSec', 'cpuUsPerOp', 'p99', 'heapPerUnit', 'rssPerUnit', 'timeMs'] as const;
export type Figure = (typeof figures)[number];

export interface ContenderSummary {
  contender: ContenderId;
  /** rounds that measured something */
  rounds: number;
  errors: number;
  opsPerSec?: Spread;
  cpuUsPerOp?: Spread;
  /** medians over rounds of each percentile (max: the largest), µs */
  latency?: LatencySummary;
  heapPerUnit?: Spread;
  rssPerUnit?: Spread;
  /** scale cells: the headline time (load, all connected, restored) and every named figure, over rounds */
  timeMs?: Spread;
  scale?: Record<string, Spread>;
  /** open-loop cells that completed under 95% of the rate asked for: they measured a saturated client */
  fellBehind?: number;
  failure?: string;
  unsupported?: boolean;
}

export interface CaseSummary {
  case: BenchCase;
  contenders: ContenderSummary[];
  /** ours / each other contender, per figure, paired as the top of this file says */
  vs: Partial<Record<Figure, Partial<Record<ContenderId, Spread>>>>;
  /**
   * The fastest other contender by median ops/s. Not the best of each round: the best of several noisy
   * samples is biased upward, the more so the more contenders run.
   */
  ceiling?: ContenderId;
  /** open-loop cases: the rates asked for over rounds */
  rate?: Spread;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** P(X <= k) for X ~ Binomial(n, 1/2). */
function binomialCdf(k: number, n: number): number {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/** The narrowest [x(j), x(n+1-j)] covering the median with 95% confidence; none below 6 values. */
export function medianInterval(values: readonly number[]): MedianInterval | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  let j = 0;
  while (j + 1 <= n / 2 && 1 - 2 * binomialCdf(j, n) >= 0.95) j++;
  if (j === 0) return undefined;
  return { low: sorted[j - 1] as number, high: sorted[n - j] as number, count: n };
}

export function spread(values: readonly number[], withInterval = false): Spread | undefined {
  if (values.length === 0) return undefined;
  const interval = withInterval ? medianInterval(values) : undefined;
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    ...(interval && { interval }),
  };
}

type FigureValue = { value?: number; turns?: number[] };

/** A cell's value of a figure, and its per-turn values where it took turns. */
function figureOf(result: CellResult, figure: Figure): FigureValue {
  if (!result.ok) return {};
  const { memory: m, scale: s, latency } = result;
  if (figure === 'p99')
    return latency?.count ? { value: latency.p99, ...(!s && { turns: result.turnP99Us }) } : {};
  if (s) {
    const named = (keys: readonly string[]) => keys.map((k) => s.figures[k]).find((v) => v !== undefined);
    if (figure === 'timeMs') return { value: s.timeMs };
    if (figure === 'heapPerUnit') return { value: named(perUnitFigures.heap) };
    return figure === 'rssPerUnit' ? { value: named(perUnitFigures.rss) } : {};
  }
  if (m) {
    if (figure === 'heapPerUnit') return m.heapBytes.length ? { value: median(m.heapBytes) / m.units } : {};
    // the first try: a process keeps the pages it freed, so later tries reuse them and show less
    return figure === 'rssPerUnit' && m.rssBytes.length ? { value: (m.rssBytes[0] as number) / m.units } : {};
  }
  if (result.ops <= 0) return {};
  if (figure === 'opsPerSec')
    return { value: (result.ops * 1000) / result.elapsedMs, turns: result.turnRates };
  return figure === 'cpuUsPerOp' ? { value: result.cpuUs / result.ops, turns: result.turnCpuUsPerOp } : {};
}

/** Ours / theirs turn by turn when both have aligned turns (0 where a turn was lost), else the round's. */
function pairedRatios(mine: FigureValue, theirs: FigureValue): number[] {
  if (mine.value === undefined || !theirs.value) return [];
  const [a, b] = [mine.turns, theirs.turns];
  if (a && b && a.length === b.length && a.length > 0) {
    const ratios = a.flatMap((x, i) => (x > 0 && (b[i] ?? 0) > 0 ? [x / (b[i] as number)] : []));
    if (ratios.length > 0) return ratios;
  }
  return [mine.value / theirs.value];
}

/** An open-loop cell completed under 95% of the rate it was asked for. */
export function fellBehind(o: Observation): boolean {
  return o.result.ok && o.rate !== undefined && (o.result.ops * 1000) / o.result.elapsedMs < 0.95 * o.rate;
}

function summarizeContender(contender: ContenderId, mine: Observation[]): ContenderSummary {
  const results = mine.map((o) => o.result);
  const measured = results.filter((r) => r.ok && (r.ops > 0 || r.memory));
  const failed = results.flatMap((r) => (r.ok ? [] : [r]));
  const summary: ContenderSummary = {
    contender,
    rounds: measured.length,
    errors: results.reduce((n, r) => n + (r.ok ? r.errors : 0), 0),
  };
  if (mine.length === 0) return { ...summary, unsupported: true, failure: 'not run in this case' };
  if (measured.length === 0) {
    summary.failure = failed[0]?.error ?? 'no operation completed';
    if (failed.length > 0 && failed.every((f) => f.unsupported)) summary.unsupported = true;
    return summary;
  }
  for (const figure of ['opsPerSec', 'cpuUsPerOp', 'heapPerUnit', 'rssPerUnit', 'timeMs'] as const) {
    const s = spread(measured.flatMap((r) => figureOf(r, figure).value ?? []));
    if (s) summary[figure] = s;
  }
  const scaled = measured.flatMap((r) => (r.ok && r.scale ? [r.scale.figures] : []));
  if (scaled.length > 0) {
    summary.scale = {};
    for (const key of new Set(scaled.flatMap((f) => Object.keys(f)))) {
      const s = spread(scaled.flatMap((f) => f[key] ?? []));
      if (s) summary.scale[key] = s;
    }
  }
  const latencies = measured.flatMap((r) => (r.ok && r.latency?.count ? [r.latency] : []));
  if (latencies.length > 0) {
    const of = (key: 'p50' | 'p90' | 'p99' | 'p999') => median(latencies.map((l) => l[key]));
    summary.latency = {
      count: latencies.reduce((n, l) => n + l.count, 0),
      ...{ p50: of('p50'), p90: of('p90'), p99: of('p99'), p999: of('p999') },
      max: Math.max(...latencies.map((l) => l.max)),
    };
  }
  const behind = mine.filter(fellBehind).length;
  if (behind > 0) summary.fellBehind = behind;
  return summary;
}

/** Summarizes every case, contenders in the given order. */
export function summarize(
  cases: readonly BenchCase[],
  contenders: readonly ContenderId[],
  observations: readonly Observation[],
): CaseSummary[] {
  return cases.map((benchCase) => {
    const mine = observations.filter((o) => o.caseKey === benchCase.key);
    const summary: CaseSummary = {
      case: benchCase,
      contenders: contenders.map((c) =>
        summarizeContender(
          c,
          mine.filter((o) => o.contender === c),
        ),
      ),
      vs: {},
    };
    const rate = spread(mine.flatMap((o) => o.rate ?? []));
    if (rate) summary.rate = rate;
    for (const figure of figures) {
      const ratios: Partial<Record<ContenderId, number[]>> = {};
      for (const round of new Set(mine.map((o) => o.round))) {
        const inRound = mine.filter((o) => o.round === round);
        const ours = inRound.find((o) => o.contender === 'ours');
        if (!ours) continue;
        for (const other of inRound) {
          if (other.contender === 'ours') continue;
          const paired = pairedRatios(figureOf(ours.result, figure), figureOf(other.result, figure));
          if (paired.length > 0) ratios[other.contender] = [...(ratios[other.contender] ?? []), ...paired];
        }
      }
      for (const [id, values] of Object.entries(ratios)) {
        const s = spread(values, true);
        if (s) (summary.vs[figure] ??= {})[id as ContenderId] = s;
      }
    }
    if (benchCase.kind === 'throughput' || benchCase.kind === 'recipe') {
      const others = summary.contenders.filter((c) => c.contender !== 'ours' && c.contender !== 'baseline');
      let best: ContenderSummary | undefined;
      for (const c of others)
        if (c.opsPerSec && c.opsPerSec.median > (best?.opsPerSec?.median ?? -1)) best = c;
      if (best) summary.ceiling = best.contender;
    }
    return summary;
  });
}
