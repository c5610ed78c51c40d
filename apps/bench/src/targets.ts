/**
 * The targets, checked in the report (never in tests): getData with 1,000 in flight, ours at least
 * 95% of the ceiling and 1.5 times node-zookeeper-client and the native package; CPU per op at most 1.5
 * times the raw limit's, below the Java client's and (from the client issue) under a third of
 * node-zookeeper-client's.
 */
import type { CaseSummary } from './stats.js';
import type { ContenderId } from './types.js';

/** One target and how this run did. */
export interface TargetCheck {
  target: string;
  measured: string;
  status: 'met' | 'missed' | 'not measured';
}

const HEADLINE = 'getData@1000';

/** Checks every target against the summaries (those whose inputs are missing say "not measured"). */
export function checkTargets(summaries: readonly CaseSummary[]): TargetCheck[] {
  const headline = summaries.find((s) => s.case.key === HEADLINE);
  const checks: TargetCheck[] = [];
  const ratio = (label: string, value: number | undefined, min: number) => {
    checks.push({
      target: `${HEADLINE}: ${label} >= ${min}`,
      measured: value === undefined ? '-' : value.toFixed(2),
      status: value === undefined ? 'not measured' : value >= min ? 'met' : 'missed',
    });
  };
  ratio('ours / ceiling', headline?.oursVsCeiling?.median, 0.95);
  ratio('ours / node-zookeeper-client', headline?.oursVs['node-zookeeper-client']?.median, 1.5);
  ratio('ours / zookeeper (native)', headline?.oursVs['zookeeper-native']?.median, 1.5);
  const cpu = (c: ContenderId) => headline?.contenders.find((x) => x.contender === c)?.cpuUsPerOp?.median;
  const ours = cpu('ours');
  const raw = cpu('raw');
  const java = cpu('java');
  const nzc = cpu('node-zookeeper-client');
  checks.push({
    target: `${HEADLINE}: CPU/op ours <= 1.5 x raw limit`,
    measured: ours !== undefined && raw !== undefined ? `${ours.toFixed(2)} vs ${raw.toFixed(2)} µs` : '-',
    status: ours === undefined || raw === undefined ? 'not measured' : ours <= 1.5 * raw ? 'met' : 'missed',
  });
  checks.push({
    target: `${HEADLINE}: CPU/op ours < Java client`,
    measured: ours !== undefined && java !== undefined ? `${ours.toFixed(2)} vs ${java.toFixed(2)} µs` : '-',
    status: ours === undefined || java === undefined ? 'not measured' : ours < java ? 'met' : 'missed',
  });
  checks.push({
    target: `${HEADLINE}: CPU/op ours < 1/3 x node-zookeeper-client`,
    measured: ours !== undefined && nzc !== undefined ? `${ours.toFixed(2)} vs ${nzc.toFixed(2)} µs` : '-',
    status: ours === undefined || nzc === undefined ? 'not measured' : ours < nzc / 3 ? 'met' : 'missed',
  });
  return checks;
}

/**
 * When every contender of the headline case runs within 15% of the ceiling, the server (not the client)
 * sets the pace, and throughput ratios between clients cannot show their difference: say so, and point to
 * CPU per op, which still does.
 */
export function serverBoundNote(summaries: readonly CaseSummary[]): string | undefined {
  const headline = summaries.find((s) => s.case.key === HEADLINE);
  const rates = headline?.contenders.flatMap((c) => (c.opsPerSec ? [c.opsPerSec.median] : [])) ?? [];
  if (!headline || rates.length < 2) return undefined;
  const best = Math.max(...rates);
  if (rates.some((r) => r < 0.85 * best)) return undefined;
  const ours = headline.contenders.find((c) => c.contender === 'ours')?.cpuUsPerOp?.median;
  const cpu = headline.contenders
    .filter((c) => c.contender !== 'ours' && c.cpuUsPerOp && ours)
    .map((c) => `${c.contender} ${((c.cpuUsPerOp?.median ?? 0) / (ours ?? 1)).toFixed(1)}×`);
  return (
    `${HEADLINE}: every contender ran within 15% of the best, so the server set the pace and throughput ratios ` +
    `between clients are capped near 1. Client CPU per op still separates them` +
    (cpu.length > 0 ? ` (theirs ÷ ours: ${cpu.join(', ')}).` : '.')
  );
}
