/**
 * An SVG chart readable in any browser: one group per case, one bar per contender, each case on its own
 * scale (cases differ by orders of magnitude). Left: ops/s, median with a whisker from min to max over rounds
 * (latency cases: p50 with a whisker to p99; memory: heap per unit). Right: client CPU µs per op (memory: RSS).
 * The scale scenarios follow, each as a log-log chart of its cost against size (report/scale.ts).
 */
import { contenders } from '../contenders/index.js';
import type { CaseSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';
import { int, micros } from './format.js';
import type { RunReport } from './model.js';
import { scaleChart, scaleScenarios } from './scale.js';

const BAR = 14;
const GAP = 4;
const HEAD = 22;
const LABEL_W = 70;
const PANEL_W = 330;
const TEXT_W = 150;
const WIDTH = 2 * (LABEL_W + PANEL_W + TEXT_W) + 20;

type Bar = { id: ContenderId; value: Spread };

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function panel(x0: number, y: number, bars: Bar[], text: (value: Spread) => string): string[] {
  const max = Math.max(...bars.map((b) => b.value.max), 1e-9);
  const x = (v: number) => (x0 + LABEL_W + (v / max) * PANEL_W).toFixed(1);
  return bars.flatMap(({ id, value }, i) => {
    const top = y + i * (BAR + GAP);
    const mid = top + BAR / 2;
    const whisker =
      value.min === value.max
        ? []
        : [
            `<path d="M${x(value.min)} ${mid}H${x(value.max)}M${x(value.min)} ${mid - 4}v8M${x(value.max)} ${mid - 4}v8" stroke="#222" fill="none"/>`,
          ];
    return [
      `<text x="${x0 + LABEL_W - 6}" y="${top + BAR - 3}" text-anchor="end">${esc(contenders[id].short)}</text>`,
      `<rect x="${x0 + LABEL_W}" y="${top}" width="${((value.median / max) * PANEL_W).toFixed(1)}" height="${BAR}" fill="${contenders[id].color}"/>`,
      ...whisker,
      `<text x="${x0 + LABEL_W + PANEL_W + 6}" y="${top + BAR - 3}">${esc(text(value))}</text>`,
    ];
  });
}

function group(summary: CaseSummary, y: number): { svg: string[]; height: number } {
  const { kind } = summary.case;
  const latencyKind = kind === 'latency' || kind === 'session' || kind === 'watch';
  const bars = (pick: (c: CaseSummary['contenders'][number]) => Spread | undefined) =>
    summary.contenders.flatMap((c) => {
      const value = pick(c);
      return value ? [{ id: c.contender, value }] : [];
    });
  const left =
    kind === 'memory'
      ? bars((c) => c.heapPerUnit)
      : latencyKind
        ? bars((c) => c.latency && { median: c.latency.p50, min: c.latency.p50, max: c.latency.p99 })
        : bars((c) => c.opsPerSec);
  const right = kind === 'memory' ? bars((c) => c.rssPerUnit) : bars((c) => c.cpuUsPerOp);
  const leftText =
    kind === 'memory'
      ? (v: Spread) => `heap ${int(v.median)} B/unit`
      : latencyKind
        ? (v: Spread) => `p50 ${micros(v.median)} µs, p99 ${micros(v.max)}`
        : (v: Spread) => `${int(v.median)} ops/s`;
  const rightText =
    kind === 'memory'
      ? (v: Spread) => `RSS ${int(v.median)} B/unit`
      : (v: Spread) => `${micros(v.median)} µs/op`;
  const svg = [
    `<text x="10" y="${y + 15}" font-weight="bold">${esc(`${summary.case.key}: ${summary.case.title}`)}</text>`,
    ...panel(0, y + HEAD, left, leftText),
    ...panel(LABEL_W + PANEL_W + TEXT_W + 20, y + HEAD, right, rightText),
  ];
  return { svg, height: HEAD + Math.max(left.length, right.length, 1) * (BAR + GAP) + 12 };
}

export function renderSvg(report: RunReport): string {
  const body: string[] = [];
  let y = 50;
  for (const summary of report.cases) {
    if (summary.case.kind === 'scale') continue; // drawn against size below
    if (!summary.contenders.some((c) => c.rounds > 0)) continue;
    const g = group(summary, y);
    body.push(...g.svg);
    y += g.height;
  }
  for (const scenario of scaleScenarios(report.cases)) {
    const chart = scaleChart(report.cases, scenario, y);
    body.push(...chart.svg);
    y += chart.height;
  }
  const title = `zkwire bench ${report.stamp}: left ops/s (latency cases p50 to p99; memory heap), right client CPU µs/op (memory RSS)`;
  const sub = `${report.options.rounds} round(s); ${report.server.description}, ZooKeeper ${report.server.version}; ${report.server.pinning}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y + 10}" viewBox="0 0 ${WIDTH} ${y + 10}" font-family="sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="10" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="10" y="38" fill="#555">${esc(sub)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
