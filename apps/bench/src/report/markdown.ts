/**
 * The Markdown report: machine, method, contenders, targets, then every case as a table; with
 * `--write-results` also apps/bench/RESULTS.md, headed by what a reader needs to weigh it: the machine
 * (lscpu's model name and cores), the commit measured and the date.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

const resultsFile = fileURLToPath(new URL('../../RESULTS.md', import.meta.url));

const run = (file: string, args: string[]) => {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

/** lscpu's model name and core count, else Node's view of the CPUs. */
function machine(report: RunReport): string {
  const lscpu = run('lscpu', []);
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(lscpu)?.[1]?.trim();
  const model = field('Model name') ?? report.machine.cpuModel;
  return `${model}, ${field('CPU\\(s\\)') ?? report.machine.cpus} CPU(s)`;
}

export function writeResultsFile(report: RunReport): void {
  const commit = run('git', ['rev-parse', 'HEAD']) || 'unknown';
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'])
    ? ' (with uncommitted changes)'
    : '';
  const head = [
    '# Bench results',
    '',
    "The latest full run, written by `npm run bench -- --write-results`; earlier runs are in this file's git history.",
    '',
    `- CPU (lscpu): ${machine(report)}`,
    `- Commit: ${commit}${dirty}`,
    `- Date: ${report.startedAt} to ${report.finishedAt}`,
  ];
  const body = renderMarkdown(report, false).replace(/^# .*\n/, '');
  writeFileSync(resultsFile, `${head.join('\n')}${body}`);
}
