/**
 * From raw observations (one per round, case and contender) to what the report shows: medians and min-max
 * over rounds, CPU per operation, and ratios computed within each round before taking their median, since
 * a shared machine moves every contender of a round together.
 */
import { type MedianInterval, medianInterval } from './median-interval.js';
import type { BenchCase } from './scenarios.js';
import type { CellResult, ContenderId, LatencySummary } from './types.js';

/** One measured cell. */
export interface Observation {
  round: number;
  caseKey: string;
  contender: ContenderId;
  result: CellResult;
  /** open-loop cells: the rate this cell was asked to send at (per round for the shares of saturation) */
  rate?: number;
}

/** A median with its spread over rounds. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** ratios of ours to another: where the median may lie (median-interval.ts), from 6 values up */
  interval?: MedianInterval;
}

/** One contender in one case, over all rounds. */
export interface ContenderSummary {
  contender: ContenderId;
  rounds: number;
  opsPerSec?: Spread;
  cpuUsPerOp?: Spread;
  /** medians over rounds of each percentile, µs */
  latency?: Omit<LatencySummary, 'count'> & { count: number };
  errors: number;
  /** latency cells: rounds whose completions fell short of 95% of the target rate (the open loop fell behind) */
  fellBehind?: number;
  /** set when no round succeeded */
  failure?: string;
  unsupported?: boolean;
  /** set when every round failed because the contender's busy event loop overran all its turns */
  turnsLost?: boolean;
}

/** One case: every contender, and ours compared with the others. */
export interface CaseSummary {
  case: BenchCase;
  contenders: ContenderSummary[];
  /**
   * The ceiling: the fastest other contender over the run (highest median ops/s), and ours / it, taken in
   * each round, then the median. Not ours / the best of each round: the best of several noisy samples is
   * biased upward, by more the more contenders run and the noisier the machine, so such a ratio would
   * move with the number of peers and the noise rather than with our client.
   */
  oursVsCeiling?: Spread;
  /** who set the ceiling */
  ceilingContender?: ContenderId;
  /** median over rounds of ours / that contender, per contender */
  oursVs: Partial<Record<ContenderId, Spread>>;
  /**
   * Ours' CPU per op / the greedy raw limit's, paired turn by turn like the throughput ratios (else round by
   * round), then the median with its interval. A contender's CPU per op moves with the server's pace (fewer
   * replies per read, more system calls per op), and that pace drifts over a run; two turns a second apart
   * see nearly the same pace, so their ratio is what the CPU target is judged on, not the ratio of medians.
   */
  oursCpuVsRaw?: Spread;
  /** open-loop cases: the rates the cells were asked for, over rounds */
  rate?: Spread;
  /** open-loop cases: median over rounds of ours' p99 / the greedy raw limit's p99 in that round */
  oursP99VsRaw?: Spread;
}

/** Median of a non-empty list (mean of the middle two when even). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median and min-max of a list; undefined when empty. */
export function spread(values: readonly number[]): Spread | undefined {
  if (values.length === 0) return undefined;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The spread of paired ratios, with the interval of their median when there are enough of them. */
function pairedSpread(ratios: readonly number[]): Spread | undefined {
  const s = spread(ratios);
  const interval = medianInterval(ratios);
  return s && interval ? { ...s, interval } : s;
}

/** ops per second of a successful cell */
export function opsPerSec(result: CellResult): number | undefined {
  return result.ok && result.ops > 0 ? (result.ops * 1000) / result.elapsedMs : undefined;
}

/** A latency cell fell behind when fewer than this share of the target rate completed in its window. */
export const BEHIND_SHARE = 0.95;

/** True when an open-loop cell completed under {@link BEHIND_SHARE} of the rate it was asked for. */
export function fellBehind(result: CellResult, targetRate: number | undefined): boolean {
  if (!result.ok || targetRate === undefined) return false;
  return (result.ops * 1000) / result.elapsedMs < BEHIND_SHARE * targetRate;
}

function summarizeContender(
  contender: ContenderId,
  observations: Observation[],
  caseRate?: number,
): ContenderSummary {
  const ok = observations.flatMap((o) => (o.result.ok && o.result.ops > 0 ? [o.result] : []));
  const failed = observations.flatMap((o) => (o.result.ok ? [] : [o.result]));
  const summary: ContenderSummary = {
    contender,
    rounds: ok.length,
    errors: ok.reduce((n, r) => n + r.errors, 0),
  };
  if (ok.length === 0) {
    summary.failure = failed[0]?.error ?? 'no operation completed';
    if (failed.length > 0 && failed.every((f) => f.unsupported)) summary.unsupported = true;
    if (failed.length > 0 && failed.every((f) => f.turnsLost)) summary.turnsLost = true;
    return summary;
  }
  summary.opsPerSec = spread(ok.map((r) => (r.ops * 1000) / r.elapsedMs));
  summary.cpuUsPerOp = spread(ok.map((r) => r.cpuUs / r.ops));
  // a cell that ran but completed nothing in its window fell behind too (it is no round of the medians)
  const behind = observations.filter((o) => fellBehind(o.result, o.rate ?? caseRate)).length;
  if (behind > 0) summary.fellBehind = behind;
  const latencies = ok.flatMap((r) => (r.latency && r.latency.count > 0 ? [r.latency] : []));
  if (latencies.length > 0) {
    summary.latency = {
      count: latencies.reduce((n, l) => n + l.count, 0),
      p50: median(latencies.map((l) => l.p50)),
      p90: median(latencies.map((l) => l.p90)),
      p99: median(latencies.map((l) => l.p99)),
      p999: median(latencies.map((l) => l.p999)),
      max: Math.max(...latencies.map((l) => l.max)),
    };
  }
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
          benchCase.kind === 'latency' ? benchCase.rate : undefined,
        ),
      ),
      oursVs: {},
    };
    if (benchCase.kind === 'latency') Object.assign(summary, openLoopSummary(mine));
    // Ratios only where throughput is the point; for latency-kind cases the report compares percentiles.
    const rated = benchCase.kind === 'throughput' || benchCase.kind === 'recipe';
    if (!rated || !contenders.includes('ours')) return summary;
    const rounds = [...new Set(mine.map((o) => o.round))];
    const vs: Partial<Record<ContenderId, number[]>> = {};
    const cpuVsRaw: number[] = [];
    for (const round of rounds) {
      const inRound = mine.filter((o) => o.round === round);
      const ours = inRound.find((o) => o.contender === 'ours')?.result;
      const oursRate = ours ? opsPerSec(ours) : undefined;
      if (ours?.ok !== true || oursRate === undefined) continue;
      for (const other of inRound) {
        if (other.contender === 'ours') continue;
        const rate = opsPerSec(other.result);
        if (rate === undefined || !other.result.ok) continue;
        const list = vs[other.contender] ?? [];
        list.push(...pairedRatios(ours.turnRates, other.result.turnRates, oursRate / rate));
        vs[other.contender] = list;
        if (other.contender === 'raw') {
          const roundCpu = ours.cpuUs / ours.ops / (other.result.cpuUs / other.result.ops);
          cpuVsRaw.push(...pairedRatios(ours.turnCpuUsPerOp, other.result.turnCpuUsPerOp, roundCpu));
        }
      }
    }
    const cpu = pairedSpread(cpuVsRaw);
    if (cpu) summary.oursCpuVsRaw = cpu;
    for (const [c, values] of Object.entries(vs)) {
      const s = pairedSpread(values);
      if (s) summary.oursVs[c as ContenderId] = s;
    }
    const fastest = fastestOther(summary.contenders);
    const vsFastest = fastest && summary.oursVs[fastest];
    if (fastest && vsFastest) {
      summary.ceilingContender = fastest;
      summary.oursVsCeiling = vsFastest;
    }
    return summary;
  });
}

/**
 * Ours / another within a round: turn by turn when both took turns (a cycle's two turns ran under a second
 * apart, so their ratio carries less of the machine's drift than the round's), else the round's ratio.
 * `mine` and `theirs` are one figure per turn (a rate, or CPU per op), 0 where a turn has none.
 */
function pairedRatios(
  mine: readonly number[] | undefined,
  theirs: readonly number[] | undefined,
  roundRatio: number,
): number[] {
  if (!mine || !theirs || mine.length !== theirs.length || mine.length === 0) return [roundRatio];
  const ratios: number[] = [];
  for (let i = 0; i < mine.length; i++) {
    if ((theirs[i] ?? 0) > 0 && (mine[i] ?? 0) > 0) ratios.push((mine[i] as number) / (theirs[i] as number));
  }
  return ratios.length > 0 ? ratios : [roundRatio];
}

/** The contender other than ours with the highest median ops/s, if any has one. */
function fastestOther(contenders: readonly ContenderSummary[]): ContenderId | undefined {
  let best: ContenderSummary | undefined;
  for (const c of contenders) {
    if (c.contender === 'ours' || !c.opsPerSec) continue;
    if (!best?.opsPerSec || c.opsPerSec.median > best.opsPerSec.median) best = c;
  }
  return best?.contender;
}

/** p99 of a successful cell with latencies */
function p99Of(observation: Observation | undefined): number | undefined {
  const r = observation?.result;
  return r?.ok && r.latency && r.latency.count > 0 ? r.latency.p99 : undefined;
}

/**
 * An open-loop case's rates over rounds, and ours' p99 against the greedy raw limit's: turn by turn where both
 * took turns (a cycle's two turns ran seconds apart, and a stall that lands in one turn moves one pair of
 * many, where it moved a round's whole p99), else within each round; then the median, with its interval.
 */
export function openLoopSummary(
  observations: readonly Observation[],
): Pick<CaseSummary, 'rate' | 'oursP99VsRaw'> {
  const out: Pick<CaseSummary, 'rate' | 'oursP99VsRaw'> = {};
  const rates = spread(observations.flatMap((o) => (o.rate !== undefined ? [o.rate] : [])));
  if (rates) out.rate = rates;
  const ratios: number[] = [];
  for (const round of new Set(observations.map((o) => o.round))) {
    const inRound = observations.filter((o) => o.round === round);
    const ours = inRound.find((o) => o.contender === 'ours');
    const raw = inRound.find((o) => o.contender === 'raw');
    const oursP99 = p99Of(ours);
    const rawP99 = p99Of(raw);
    if (oursP99 === undefined || rawP99 === undefined || rawP99 <= 0) continue;
    ratios.push(...pairedRatios(turnP99s(ours), turnP99s(raw), oursP99 / rawP99));
  }
  const vsRaw = pairedSpread(ratios);
  if (vsRaw) out.oursP99VsRaw = vsRaw;
  return out;
}

/** Each measured turn's p99 of a successful open-loop cell that took turns. */
function turnP99s(observation: Observation | undefined): number[] | undefined {
  const r = observation?.result;
  return r?.ok ? r.turnP99Us : undefined;
}
