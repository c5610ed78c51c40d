/**
 * An SVG chart readable in any browser: one group per case, one bar per contender, each case on its own
 * scale (cases differ by orders of magnitude). Left: ops/s, median with a whisker from min to max over rounds
 * (latency cases: p50 with a whisker to p99; memory: heap per unit). Right: client CPU µs per op (memory: RSS).
 * The scale scenarios follow, each as a log-log chart of its cost against size (report/scale.ts).
 */
import { contenders } from '../contenders/index.js';
import { scaleViews } from '../scale/figures.js';
import type { CaseSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';
import { int, micros } from './format.js';
import type { RunReport } from './model.js';
import { scaleScenarios, scaleSeries } from './scale.js';

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
  type Side = [Bar[], (v: Spread) => string];
  const [left, leftText]: Side =
    kind === 'memory'
      ? [bars((c) => c.heapPerUnit), (v) => `heap ${int(v.median)} B/unit`]
      : latencyKind
        ? [
            bars((c) => c.latency && { median: c.latency.p50, min: c.latency.p50, max: c.latency.p99 }),
            (v) => `p50 ${micros(v.median)} µs, p99 ${micros(v.max)}`,
          ]
        : [bars((c) => c.opsPerSec), (v) => `${int(v.median)} ops/s`];
  const [right, rightText]: Side =
    kind === 'memory'
      ? [bars((c) => c.rssPerUnit), (v) => `RSS ${int(v.median)} B/unit`]
      : [bars((c) => c.cpuUsPerOp), (v) => `${micros(v.median)} µs/op`];
  const svg = [
    `<text x="10" y="${y + 15}" font-weight="bold">${esc(`${summary.case.key}: ${summary.case.title}`)}</text>`,
    ...panel(0, y + HEAD, left, leftText),
    ...panel(LABEL_W + PANEL_W + TEXT_W + 20, y + HEAD, right, rightText),
  ];
  return { svg, height: HEAD + Math.max(left.length, right.length, 1) * (BAR + GAP) + 12 };
}

const CHART_W = 520;
const CHART_H = 220;
const PAD_L = 70;
const PAD_B = 30;

/** Powers of ten from below `low` to above `high`. */
const decades = (low: number, high: number) => {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(low)); e <= Math.ceil(Math.log10(high)); e++) out.push(10 ** e);
  return out;
};

/** One scenario's log-log chart of its first slope figure at `y`; its SVG and height. */
function scaleChart(cases: readonly CaseSummary[], scenario: string, y: number) {
  const figure = scaleViews[scenario]?.slopes[0];
  const series = scaleSeries(cases, scenario).filter((s) => s.figure === figure && s.points.length > 0);
  if (series.length === 0) return { svg: [], height: 0 };
  const points = series.flatMap((s) => s.points);
  const sizes = decades(Math.min(...points.map((p) => p.size)), Math.max(...points.map((p) => p.size)));
  const costs = decades(Math.min(...points.map((p) => p.cost)), Math.max(...points.map((p) => p.cost)));
  const [x0, x1] = [Math.log10(sizes[0] as number), Math.log10(sizes[sizes.length - 1] as number)];
  const [c0, c1] = [Math.log10(costs[0] as number), Math.log10(costs[costs.length - 1] as number)];
  const top = y + 24;
  const px = (size: number) =>
    (PAD_L + ((Math.log10(size) - x0) / Math.max(x1 - x0, 1e-9)) * CHART_W).toFixed(1);
  const py = (cost: number) =>
    (top + CHART_H - ((Math.log10(cost) - c0) / Math.max(c1 - c0, 1e-9)) * CHART_H).toFixed(1);
  const svg = [
    `<text x="10" y="${y + 15}" font-weight="bold">${esc(`${scenario}: ${figure} against size (log-log)`)}</text>`,
    `<rect x="${PAD_L}" y="${top}" width="${CHART_W}" height="${CHART_H}" fill="none" stroke="#999"/>`,
    ...sizes.map(
      (s) => `<text x="${px(s)}" y="${top + CHART_H + 16}" text-anchor="middle">${esc(int(s))}</text>`,
    ),
    ...costs.map(
      (c) =>
        `<text x="${PAD_L - 6}" y="${py(c)}" text-anchor="end">${esc(c < 1 ? String(c) : int(c))}</text>`,
    ),
    ...series.flatMap((s, i) => {
      const sorted = [...s.points].sort((a, b) => a.size - b.size);
      const color = contenders[s.contender].color;
      const d = sorted.map((p, k) => `${k === 0 ? 'M' : 'L'}${px(p.size)} ${py(p.cost)}`).join('');
      const slope = s.slope === undefined ? '' : `, slope ${s.slope.toFixed(2)}`;
      return [
        `<path d="${d}" stroke="${color}" fill="none" stroke-width="2"/>`,
        ...sorted.map((p) => `<circle cx="${px(p.size)}" cy="${py(p.cost)}" r="3" fill="${color}"/>`),
        `<text x="${PAD_L + CHART_W + 10}" y="${top + 14 + i * 16}" fill="${color}">${esc(`${contenders[s.contender].short}${slope}`)}</text>`,
      ];
    }),
  ];
  return { svg, height: 24 + CHART_H + PAD_B + 10 };
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
