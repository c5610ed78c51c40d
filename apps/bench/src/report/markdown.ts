/** The Markdown report: machine, method, contenders, targets, then every case as a table. */

import type { ContenderId } from '../types.js';
import { caseLines, caseRows, label, micros, rate, ratio } from './format.js';
import type { RunReport } from './model.js';
import { scaleVerdicts, slopeLines } from './scale.js';

/** The targets are judged on the median of this many rounds; a verdict from fewer is indicative. */
const TARGET_ROUNDS = 5;

function table(header: string[], rows: string[][]): string[] {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

function method(report: RunReport): string {
  const o = report.options;
  const cycles = Math.max(1, Math.ceil(o.durationMs / o.turnMs));
  return (
    `${o.rounds} round(s). Every cell is one contender in one case, in a process of its own. Throughput and ` +
    `open-loop cases run their contenders at once, taking turns at the server (order rotated each round): ` +
    `${o.turnMs} ms turns (open loops ${o.openLoopTurnMs} ms) with ${o.turnGapMs} ms between them, after ` +
    `${o.turnWarmupMs} ms of every loop at once and one warm-up cycle; ${cycles} measured cycles; ratios pair ` +
    `the turns of a cycle. Other cases run one contender after another (order rotated), ${o.warmupMs} ms ` +
    `warm-up then ${o.durationMs} ms measured (session setup ${o.sessionDurationMs} ms); their ratios pair ` +
    "rounds. Figures are medians over rounds with min–max; CPU is the client process's user + system time " +
    `per completed operation. Values: ${o.dataSize} bytes.`
  );
}

/** Renders report.md (`links`: the chart and results.json next to it). */
export function renderMarkdown(report: RunReport, links = true): string {
  const m = report.machine;
  const saturation = report.saturation
    .map((s) => `r${s.round} ${s.opsPerSec === undefined ? `failed (${s.error})` : Math.round(s.opsPerSec)}`)
    .join(', ');
  const lines = [
    `# zkwire bench, ${report.stamp}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.platform}, Node ${m.node}, 1-minute load ${m.loadAverage[0].toFixed(2)} at the start, ${m.loadAverage[1].toFixed(2)} at the end`,
    `- Server: ${report.server.description}, ZooKeeper ${report.server.version}; ${report.server.pinning}`,
    `- Command: \`${report.command}\`${report.options.quick ? ' (**quick run**: a smoke test, not a measurement)' : ''}`,
    `- Method: ${method(report)}`,
    ...(saturation
      ? [`- Saturation (greedy raw getData at 256 in flight, ops/s per round): ${saturation}`]
      : []),
    '',
    '## Contenders',
    '',
    ...Object.entries(report.contenders).map(
      ([id, s]) => `- ${label(id as ContenderId)}: ${s.available ? s.detail : `**not run**: ${s.reason}`}`,
    ),
    '',
    '## Targets',
    '',
    'The targets of apps/bench/targets.json for the cases this run measured: ours / the named contender.',
    '',
    ...table(
      ['target', 'measured', 'status'],
      report.targets.map((t) => [t.target, t.measured, t.status]),
    ),
  ];
  if (report.options.rounds < TARGET_ROUNDS) {
    lines.push(
      '',
      `**Indicative only:** ${report.options.rounds} round(s); targets are judged on ${TARGET_ROUNDS}.`,
    );
  }
  const summary = report.cases.flatMap((s) => {
    const ours = s.contenders.find((c) => c.contender === 'ours');
    const vs = s.ceiling && s.vs.opsPerSec?.[s.ceiling];
    const best = s.contenders.find((c) => c.contender === s.ceiling);
    if (!vs || !ours?.opsPerSec || !best) return [];
    const row = [s.case.key, rate(ours.opsPerSec), micros(ours.cpuUsPerOp?.median), ratio(vs)];
    return [[...row, `${best.contender} ${rate(best.opsPerSec)}`]];
  });
  if (summary.length > 0) {
    lines.push('', '## Summary', '');
    lines.push(...table(['case', 'ours ops/s', 'ours CPU µs/op', 'ours / ceiling', 'ceiling'], summary));
  }
  const slopes = slopeLines(report.cases);
  if (slopes.length > 0) {
    lines.push(
      '',
      '## Cost against size',
      '',
      'Log-log slopes of each total cost against size over the sizes measured (1: linear, 2: quadratic; between',
      'neighbouring sizes in brackets, where a superlinear step shows). The chart draws the first of each scenario.',
      '',
      ...slopes.map((l) => `- ${l}`),
      '',
      ...scaleVerdicts(report.cases).map((l) => `- ${l}`),
    );
  }
  lines.push('', '## Results');
  for (const s of report.cases) {
    const { header, rows } = caseRows(s);
    lines.push('', `### ${s.case.key}`, '', s.case.title, '', ...table(header, rows));
    const extra = caseLines(s);
    if (extra.length > 0) lines.push('', ...extra.map((l) => `- ${l}`));
  }
  if (report.notes.length > 0) lines.push('', '## Notes', '', ...report.notes.map((n) => `- ${n}`));
  if (links)
    lines.push('', 'Chart: [chart.svg](chart.svg). Every observation: [results.json](results.json).');
  return `${lines.join('\n')}\n`;
}
