/** Number formatting shared by the terminal table, the Markdown report and the chart. */
import type { SaturationMeasurement } from '../saturation.js';
import type { CaseSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';

/** Display names of the contenders. */
export const contenderLabel: Record<ContenderId, string> = {
  ours: 'ours (@zkwire/zk-wire-client)',
  raw: 'raw limit',
  'raw-paced': 'raw limit, paced reads',
  'node-zookeeper-client': 'node-zookeeper-client',
  'zookeeper-native': 'zookeeper (native, C client)',
  java: 'Java client (official)',
  curator: 'Apache Curator 5.4 (Java)',
};

/** Short names for narrow columns. */
export const contenderShort: Record<ContenderId, string> = {
  ours: 'ours',
  raw: 'raw',
  'raw-paced': 'raw-paced',
  'node-zookeeper-client': 'nzc',
  'zookeeper-native': 'native',
  java: 'java',
  curator: 'curator',
};

/** 12345.6 -> "12,346" */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** ops/s median with min-max: "12,346 (11,900–12,800)" */
export function rate(s: Spread | undefined): string {
  if (!s) return '-';
  return s.min === s.max ? int(s.median) : `${int(s.median)} (${int(s.min)}–${int(s.max)})`;
}

/** CPU µs per op with two significant decimals */
export function micros(n: number | undefined): string {
  if (n === undefined) return '-';
  return n >= 100 ? int(n) : n.toFixed(n >= 10 ? 1 : 2);
}

/** a ratio "1.23×" with its spread when rounds differ */
export function ratio(s: Spread | undefined): string {
  if (!s) return '-';
  return s.min === s.max
    ? `${s.median.toFixed(2)}×`
    : `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** The round's saturation rates: "r1 27,100, r2 28,000" (a failed calibration says so). */
export function saturationText(saturation: readonly SaturationMeasurement[]): string {
  return saturation
    .map((m) =>
      m.opsPerSec === undefined
        ? `r${m.round} failed (${m.error ?? '?'})`
        : `r${m.round} ${int(m.opsPerSec)}`,
    )
    .join(', ');
}

/** The open-loop lines of one case (its rate and ours' p99 against the raw limit's), empty for others. */
export function openLoopLines(summary: CaseSummary): string[] {
  const lines: string[] = [];
  const { saturationShare } = summary.case;
  if (summary.rate) {
    const share =
      saturationShare === undefined
        ? ''
        : ` (${Math.round(saturationShare * 100)}% of each round's saturation rate)`;
    lines.push(`rate: ${rate(summary.rate)} req/s${share}`);
  }
  if (summary.oursP99VsRaw) lines.push(`ours p99 / raw limit p99: ${ratio(summary.oursP99VsRaw)}`);
  return lines;
}
