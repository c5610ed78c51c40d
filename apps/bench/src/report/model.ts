/** The whole result of a run, as written to results.json and rendered into the table, Markdown and SVG. */
import type { BenchOptions } from '../cli-options.js';
import type { CodecSummary } from '../codec-bench.js';
import type { MemoryCaseSummary } from '../memory-figures.js';
import type { SaturationMeasurement } from '../saturation.js';
import type { CaseSummary, Observation } from '../stats.js';
import type { TargetCheck } from '../targets.js';
import type { ContenderId } from '../types.js';

/** Whether a contender took part, and what it is (or why it did not). */
export type ContenderStatus = { available: true; detail: string } | { available: false; reason: string };

/** Everything a reader needs to judge the figures. */
export interface RunReport {
  stamp: string;
  startedAt: string;
  finishedAt: string;
  /** loadAverage: 1-minute load when the run started and ended (other work on a shared machine shows here) */
  machine: { cpus: number; cpuModel: string; node: string; platform: string; loadAverage?: [number, number] };
  server: { description: string; version: string; pinning: string };
  options: Pick<
    BenchOptions,
    'quick' | 'rounds' | 'warmupMs' | 'durationMs' | 'rate' | 'dataSize' | 'scenarios'
  > &
    Partial<
      Pick<BenchOptions, 'turnMs' | 'openLoopTurnMs' | 'turnGapMs' | 'turnWarmupMs' | 'sessionDurationMs'>
    >;
  contenders: Partial<Record<ContenderId, ContenderStatus>>;
  cases: CaseSummary[];
  /** the memory scenario's cases, when it ran (their figures are bytes, not ops) */
  memory?: MemoryCaseSummary[];
  /** per round: the saturation rate the open-loop cells (latency50, latency90) took their rates from */
  saturation?: SaturationMeasurement[];
  targets: TargetCheck[];
  /** why the throughput targets cannot separate the clients when the server sets the pace (shown with them) */
  targetsNote?: string;
  /** codec micro-benchmarks (generic vs fast path), when the codec scenario ran */
  codec: CodecSummary[];
  observations: Observation[];
  notes: string[];
}
