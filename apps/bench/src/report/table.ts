/** The plain-text table printed at the end of a run. */
import { caseLines, caseRows } from './format.js';
import type { RunReport } from './model.js';

function pad(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function renderTable(report: RunReport): string {
  const o = report.options;
  const lines = [
    `zkwire bench: ${o.rounds} round(s); ${report.server.description}, ZooKeeper ${report.server.version}; ${report.server.pinning}`,
  ];
  for (const s of report.cases) {
    lines.push('', `${s.case.key}: ${s.case.title}`);
    const { header, rows } = caseRows(s);
    for (const line of pad([header, ...rows])) lines.push(`  ${line}`);
    for (const line of caseLines(s)) lines.push(`  ${line}`);
  }
  const missing = Object.entries(report.contenders).flatMap(([id, s]) =>
    s.available ? [] : [`  ${id}: ${s.reason}`],
  );
  if (missing.length > 0) lines.push('', 'Not run:', ...missing);
  lines.push('', 'Targets (targets.json):');
  for (const t of report.targets) lines.push(`  [${t.status}] ${t.target}: ${t.measured}`);
  return lines.join('\n');
}
