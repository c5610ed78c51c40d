/** The Markdown report: method, machine, every case as a table, targets, and what did not run and why. */

import { turnScheduleFor } from '../turn-schedule.js';
import {
  contenderLabel,
  contenderShort,
  micros,
  openLoopLines,
  rate,
  ratio,
  saturationText,
} from './format.js';
import { memoryMethod, memoryRows } from './memory-rows.js';
import type { RunReport } from './model.js';
import { caseRows } from './rows.js';

function table(header: string[], rows: string[][]): string[] {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

function load(report: RunReport): string {
  const l = report.machine.loadAverage;
  return l ? `, 1-minute load average ${l[0].toFixed(2)} at the start and ${l[1].toFixed(2)} at the end` : '';
}

/** One line per rated case: how ours did against the ceiling and who set it. */
function summaryRows(report: RunReport): string[][] {
  return report.cases.flatMap((s) => {
    const ours = s.contenders.find((c) => c.contender === 'ours');
    if (!s.oursVsCeiling || !ours?.opsPerSec) return [];
    const best = s.contenders.find((c) => c.contender === s.ceilingContender);
    return [
      [
        s.case.key,
        rate(ours.opsPerSec),
        micros(ours.cpuUsPerOp?.median),
        ratio(s.oursVsCeiling),
        best ? `${contenderShort[best.contender]} ${rate(best.opsPerSec)}` : '-',
      ],
    ];
  });
}

/** The targets are judged on the median of this many rounds (a verdict from fewer is marked indicative). */
export const TARGET_ROUNDS = 5;

/** How many measured cycles a case in turns of `turnMs` gets. */
function cyclesOf(o: RunReport['options'], turnMs: number): number {
  return turnScheduleFor(
    { turnMs, turnGapMs: o.turnGapMs ?? 0, durationMs: o.durationMs, turnWarmupMs: 0 },
    1,
  ).cycles;
}

/** How throughput and open-loop cells ran when they took turns (types.ts, TurnSchedule). */
function turnsText(o: RunReport['options']): string {
  if (!o.turnMs) return '';
  const cycles = cyclesOf(o, o.turnMs);
  const warmUp = o.turnWarmupMs
    ? ` (every contender's loop first runs for ${o.turnWarmupMs} ms at once, unmeasured, an open loop at its share of the rate, so that no process is measured while its code is still being compiled)`
    : '';
  const openLoop =
    o.openLoopTurnMs && o.openLoopTurnMs !== o.turnMs
      ? ` (open-loop cases: ${o.openLoopTurnMs} ms turns, ${cyclesOf(o, o.openLoopTurnMs)} measured cycles, so that the edges of a turn do not set its p99)`
      : '';
  return ` Throughput and open-loop latency cases instead run a case's contenders at once, taking turns at the server${warmUp}: ${o.turnMs} ms turns with ${o.turnGapMs ?? '?'} ms between them, one warm-up cycle, then ${cycles} measured cycles${openLoop} (each turn's window opens once its loop is at full depth or its pacer has settled; an open loop records the requests due in the window, and stops sending at the turn's end); throughput ratios pair the turns of each cycle, and the median is over every pair of every round.`;
}

/** The session-setup cells' own window, when they ran with one (longer than the others by default). */
function sessionWindow(o: RunReport['options']): string {
  const ran = o.scenarios.includes('session');
  return ran && o.sessionDurationMs !== undefined && o.sessionDurationMs !== o.durationMs
    ? ` (session setup: ${o.sessionDurationMs} ms)`
    : '';
}

/** Renders report.md. */
export function renderMarkdown(report: RunReport): string {
  const o = report.options;
  const lines: string[] = [
    `# zkwire bench, ${report.stamp}`,
    '',
    `- Machine: ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.platform}, Node ${report.machine.node}${load(report)}`,
    `- Server: ${report.server.description}, ZooKeeper ${report.server.version}`,
    `- Pinning: ${report.server.pinning}`,
    `- Method: ${o.rounds} interleaved round(s); in each round every case runs every contender in its own process (order rotated), ${o.warmupMs} ms warm-up then ${o.durationMs} ms measured${sessionWindow(o)}. Figures are medians over rounds with min–max; ratios are taken within a round, then their median. CPU is the client process's user + system time in the measured window, per completed operation.${turnsText(o)}`,
    `- The ceiling of a case is the fastest of the raw limits (greedy and paced reads) and every peer, by median ops/s over the rounds; ours / ceiling is ours / that contender within each round, then the median. Values: ${o.dataSize} bytes.${o.quick ? ' **Quick run**: a smoke test, not a measurement.' : ''}`,
  ];
  if (report.saturation && report.saturation.length > 0) {
    lines.push(
      `- Saturation (the rate the open-loop cells take their share of): getData with the greedy raw limit at ${report.saturation[0]?.inFlight ?? '?'} in flight, measured in each round right before its open-loop cells, ops/s: ${saturationText(report.saturation)}.`,
    );
  }
  lines.push('', '## Contenders', '');
  for (const [id, status] of Object.entries(report.contenders)) {
    const label = contenderLabel[id as keyof typeof contenderLabel] ?? id;
    lines.push(`- ${label}: ${status.available ? status.detail : `**not run**: ${status.reason}`}`);
  }
  lines.push(
    '',
    '## Targets',
    '',
    ...table(
      ['target', 'measured', 'status'],
      report.targets.map((t) => [t.target, t.measured, t.status]),
    ),
  );
  if (o.rounds < TARGET_ROUNDS)
    lines.push(
      '',
      `**Indicative only:** ${o.rounds} round(s). The targets are judged on the median of ${TARGET_ROUNDS} rounds (\`--rounds ${TARGET_ROUNDS}\`; \`--precise\` for runs that agree within ~3%).`,
    );
  if (report.targetsNote) lines.push('', `**Why the throughput ratios are capped:** ${report.targetsNote}`);
  const summary = summaryRows(report);
  if (summary.length > 0) {
    lines.push(
      '',
      '## Summary',
      '',
      'Ours in every case with a throughput ratio; the ceiling is the fastest other contender (median over rounds), and ours / ceiling is taken against it round by round.',
      '',
    );
    lines.push(
      ...table(['case', 'ours ops/s', 'ours CPU µs/op', 'ours / ceiling', 'fastest other (median)'], summary),
    );
  }
  lines.push('', '## Results');
  for (const summary of report.cases) {
    const { header, rows } = caseRows(summary);
    lines.push('', `### ${summary.case.key}`, '', summary.case.title, '', ...table(header, rows));
    if (summary.oursVsCeiling)
      lines.push(
        '',
        `ours / ceiling: ${ratio(summary.oursVsCeiling)} (ceiling: ${summary.ceilingContender ?? '-'})`,
      );
    const openLoop = openLoopLines(summary);
    if (openLoop.length > 0) lines.push('', ...openLoop.map((l) => `- ${l}`));
  }
  if (report.memory && report.memory.length > 0) {
    lines.push('', '## Memory', '', memoryMethod);
    for (const summary of report.memory) {
      const { header, rows } = memoryRows(summary);
      lines.push('', `### ${summary.case.key}`, '', summary.case.title, '', ...table(header, rows));
    }
  }
  if (report.codec.length > 0) {
    lines.push(
      '',
      '### codec',
      '',
      '@zkwire/jute-codec: the generic buffer-layout path against the fast path, in one process, alternating.',
      '',
    );
    lines.push(
      ...table(
        ['case', 'generic ops/s', 'fast ops/s', 'fast ÷ generic'],
        report.codec.map((c) => [c.name, rate(c.generic), rate(c.fast), ratio(c.speedup)]),
      ),
    );
  }
  if (report.notes.length > 0) lines.push('', '## Notes', '', ...report.notes.map((n) => `- ${n}`));
  lines.push('', 'Chart: [chart.svg](chart.svg). Every observation: [results.json](results.json).', '');
  return lines.join('\n');
}
