/** The whole result of a run, as written to results.json and rendered as a table, Markdown and SVG. */
import type { BenchOptions } from '../options.js';
import type { CaseSummary, Observation } from '../stats.js';
import type { TargetCheck } from '../targets.js';
import type { ContenderId } from '../types.js';

export type ContenderStatus = { available: true; detail: string } | { available: false; reason: string };

/** A round's saturation rate: greedy raw getData at 256 in flight, the base of latency50 and latency90. */
export interface Saturation {
  round: number;
  opsPerSec?: number;
  error?: string;
}

export interface RunReport {
  stamp: string;
  startedAt: string;
  finishedAt: string;
  /** how the bench was started, e.g. `npm run bench -- --quick` */
  command: string;
  /** loadAverage: the 1-minute load at the start and the end (other work on a shared machine shows here) */
  machine: { cpus: number; cpuModel: string; node: string; platform: string; loadAverage: [number, number] };
  server: { description: string; version: string; pinning: string };
  options: Pick<
    BenchOptions,
    'quick' | 'rounds' | 'durationMs' | 'warmupMs' | 'sessionDurationMs' | 'dataSize' | 'scenarios'
  > &
    Pick<BenchOptions, 'turnMs' | 'openLoopTurnMs' | 'turnGapMs' | 'turnWarmupMs'>;
  contenders: Partial<Record<ContenderId, ContenderStatus>>;
  cases: CaseSummary[];
  saturation: Saturation[];
  targets: TargetCheck[];
  observations: Observation[];
  notes: string[];
}
