/** Numbers and rows shared by the terminal table, the Markdown report and the chart; the terminal table. */
import { contenders, supports } from '../contenders/index.js';
import { scaleViews } from '../scale/figures.js';
import type { CaseSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';
import type { RunReport } from './model.js';

export const label = (id: ContenderId) => contenders[id].label;

/** 12345.6 -> "12,346" */
export const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** A median with its min-max over rounds: "12,346 (11,900–12,800)" */
export function rate(s: Spread | undefined, show = int): string {
  if (!s) return '-';
  return s.min === s.max ? show(s.median) : `${show(s.median)} (${show(s.min)}–${show(s.max)})`;
}

/** µs with two significant decimals */
export function micros(n: number | undefined): string {
  if (n === undefined) return '-';
  return n >= 100 ? int(n) : n.toFixed(n >= 10 ? 1 : 2);
}

/** A ratio "1.23×", with its min-max when it has one */
export function ratio(s: Spread | undefined): string {
  if (!s) return '-';
  const median = `${s.median.toFixed(2)}×`;
  return s.min === s.max ? median : `${median} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** A scale figure over rounds; `lagGrows` (0 or 1) in words. */
function scaleValue(key: string, s: Spread | undefined, digits: number): string {
  if (s && key === 'lagGrows') return s.max === 0 ? 'no' : s.min === 1 ? 'yes' : 'in some rounds';
  return rate(s, (n) => (digits === 0 ? int(n) : n.toFixed(digits)));
}

/** Header and rows of one case: a row per contender that supports it. */
export function caseRows(summary: CaseSummary): { header: string[]; rows: string[][] } {
  const { kind, scenario } = summary.case;
  const columns = kind === 'scale' ? (scaleViews[scenario]?.columns ?? []) : undefined;
  const withLatency = summary.contenders.some((c) => (c.latency?.count ?? 0) > 0);
  const header = columns
    ? ['contender', ...columns.map((c) => c.label)]
    : kind === 'memory'
      ? ['contender', 'heap B/unit', 'RSS B/unit']
      : withLatency
        ? ['contender', 'ops/s median (min–max)', 'CPU µs/op', 'p50 µs', 'p90 µs', 'p99 µs', 'p99.9 µs']
        : ['contender', 'ops/s median (min–max)', 'CPU µs/op', 'ours ÷ this'];
  const rows = summary.contenders
    .filter((c) => supports(c.contender, summary.case))
    .map((c) => {
      const behind = c.fellBehind ? ` (fell behind the rate ${c.fellBehind}×)` : '';
      const name = `${label(c.contender)}${behind}`;
      if (c.failure) {
        const why = c.unsupported ? 'n/a' : `failed: ${c.failure}`;
        return [name, why.length > 80 ? `${why.slice(0, 77)}...` : why, ...header.slice(2).map(() => '')];
      }
      if (columns)
        return [name, ...columns.map((col) => scaleValue(col.key, c.scale?.[col.key], col.digits))];
      if (kind === 'memory') return [name, rate(c.heapPerUnit), rate(c.rssPerUnit)];
      const base = [name, rate(c.opsPerSec), micros(c.cpuUsPerOp?.median)];
      if (!withLatency)
        return [...base, c.contender === 'ours' ? '' : ratio(summary.vs.opsPerSec?.[c.contender])];
      const l = c.latency;
      return [...base, micros(l?.p50), micros(l?.p90), micros(l?.p99), micros(l?.p999)];
    });
  return { header, rows };
}

/** The lines under a case's rows: ours against the ceiling, an open loop's rate and p99 against the raw limit. */
export function caseLines(summary: CaseSummary): string[] {
  const lines: string[] = [];
  const ceiling = summary.ceiling && summary.vs.opsPerSec?.[summary.ceiling];
  if (ceiling) lines.push(`ours / ceiling (${summary.ceiling}): ${ratio(ceiling)}`);
  if (summary.case.kind === 'latency' && summary.rate) lines.push(`rate: ${rate(summary.rate)} req/s`);
  const p99 = summary.case.kind === 'latency' ? summary.vs.p99?.raw : undefined;
  if (p99) lines.push(`ours p99 / raw limit p99: ${ratio(p99)}`);
  return lines;
}

/** The plain-text table printed at the end of a run. */
export function renderTable(report: RunReport): string {
  const { server } = report;
  const lines = [
    `zkwire bench: ${report.options.rounds} round(s); ${server.description}, ZooKeeper ${server.version}; ${server.pinning}`,
  ];
  for (const s of report.cases) {
    const { header, rows } = caseRows(s);
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? '').length)));
    const padded = [header, ...rows].map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  '),
    );
    lines.push(
      '',
      `${s.case.key}: ${s.case.title}`,
      ...[...padded, ...caseLines(s)].map((l) => `  ${l}`.trimEnd()),
    );
  }
  const missing = Object.entries(report.contenders).flatMap(([id, s]) =>
    s.available ? [] : [`  ${id}: ${s.reason}`],
  );
  if (missing.length > 0) lines.push('', 'Not run:', ...missing);
  lines.push(
    '',
    'Targets (targets.json):',
    ...report.targets.map((t) => `  [${t.status}] ${t.target}: ${t.measured}`),
  );
  return lines.join('\n');
}
