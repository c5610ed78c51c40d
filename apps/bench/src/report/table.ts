/** The plain-text table printed at the end of a run. */

import { openLoopLines, rate, ratio, saturationText } from './format.js';
import { memoryRows } from './memory-rows.js';
import type { RunReport } from './model.js';
import { caseRows } from './rows.js';

function pad(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** Renders the final table (one block per case, then the targets). */
export function renderTable(report: RunReport): string {
  const lines: string[] = [];
  lines.push(
    `zkwire bench: ${report.options.rounds} round(s), ${report.options.warmupMs} ms warm-up + ${report.options.durationMs} ms per cell; ${report.server.description}, ZooKeeper ${report.server.version}; ${report.server.pinning}`,
  );
  if (report.saturation && report.saturation.length > 0) {
    const inFlight = report.saturation[0]?.inFlight ?? '?';
    lines.push(
      `saturation (greedy raw limit, getData, ${inFlight} in flight), ops/s: ${saturationText(report.saturation)}`,
    );
  }
  for (const summary of report.cases) {
    lines.push('', `${summary.case.key}: ${summary.case.title}`);
    const { header, rows } = caseRows(summary);
    for (const line of pad([header, ...rows])) lines.push(`  ${line}`);
    if (summary.oursVsCeiling)
      lines.push(
        `  ours / ceiling (${summary.ceilingContender ?? '-'}, the fastest other by median; per round, or per turn cycle when they took turns): ${ratio(summary.oursVsCeiling)}`,
      );
    for (const line of openLoopLines(summary)) lines.push(`  ${line}`);
  }
  for (const summary of report.memory ?? []) {
    lines.push('', `${summary.case.key}: ${summary.case.title}`);
    const { header, rows } = memoryRows(summary);
    for (const line of pad([header, ...rows])) lines.push(`  ${line}`);
  }
  if (report.codec.length > 0) {
    lines.push(
      '',
      'codec: @zkwire/jute-codec, generic buffer-layout path vs fast path (ops/s, median over rounds)',
    );
    const rows = report.codec.map((c) => [c.name, rate(c.generic), rate(c.fast), ratio(c.speedup)]);
    for (const line of pad([['case', 'generic', 'fast', 'fast ÷ generic'], ...rows])) lines.push(`  ${line}`);
  }
  const unavailable = Object.entries(report.contenders).filter(([, s]) => !s.available);
  if (unavailable.length > 0) {
    lines.push('', 'Not run:');
    for (const [id, s] of unavailable) if (!s.available) lines.push(`  ${id}: ${s.reason}`);
  }
  lines.push('', 'Targets (per case; see the bench README):');
  for (const t of report.targets) lines.push(`  [${t.status}] ${t.target}: ${t.measured}`);
  if (report.targetsNote) lines.push(`  note: ${report.targetsNote}`);
  return lines.join('\n');
}
