/** The rows of one case, shared by the terminal table and the Markdown report. */
import type { CaseSummary } from '../stats.js';
import { supports } from '../types.js';
import { contenderLabel, micros, rate, ratio } from './format.js';

/** Header and rows (cells as text) for one case. */
export function caseRows(summary: CaseSummary): { header: string[]; rows: string[][] } {
  // recipe cases are rated by throughput, except those that measured latency (queueLatency)
  const latencyKind =
    (summary.case.kind !== 'throughput' && summary.case.kind !== 'recipe') ||
    summary.contenders.some((c) => (c.latency?.count ?? 0) > 0);
  const header = latencyKind
    ? ['contender', 'ops/s median (min–max)', 'CPU µs/op', 'p50 µs', 'p90 µs', 'p99 µs', 'p99.9 µs']
    : ['contender', 'ops/s median (min–max)', 'CPU µs/op', 'ours ÷ this'];
  const rows = summary.contenders
    .filter((c) => supports(c.contender, summary.case.kind))
    .map((c) => {
      // an open-loop cell that could not keep the rate measured a saturated client, not its latency
      const name = c.fellBehind
        ? `${contenderLabel[c.contender]} (fell behind the rate in ${c.fellBehind} round(s))`
        : contenderLabel[c.contender];
      if (!c.opsPerSec) {
        const why = c.unsupported ? 'n/a' : `failed: ${c.failure ?? ''}`;
        return [name, why.length > 70 ? `${why.slice(0, 67)}...` : why, ...header.slice(2).map(() => '')];
      }
      const base = [name, rate(c.opsPerSec), micros(c.cpuUsPerOp?.median)];
      if (latencyKind) {
        const l = c.latency;
        return [...base, micros(l?.p50), micros(l?.p90), micros(l?.p99), micros(l?.p999)];
      }
      return [...base, c.contender === 'ours' ? '' : ratio(summary.oursVs[c.contender])];
    });
  return { header, rows };
}
