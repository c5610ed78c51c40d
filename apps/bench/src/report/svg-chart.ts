/**
 * An SVG chart readable in any browser: one group per throughput case, one bar per contender. Left panel:
 * ops/s (median, with a whisker from min to max over rounds), scaled per case since cases differ by orders
 * of magnitude. Right panel: client CPU µs per op, on the same per-case basis.
 */
import type { CaseSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';
import { contenderShort, int, micros } from './format.js';
import type { RunReport } from './model.js';

const colors: Record<ContenderId, string> = {
  ours: '#2b7bb9',
  raw: '#7f7f7f',
  'raw-paced': '#b0b0b0',
  'node-zookeeper-client': '#e08a2c',
  'zookeeper-native': '#4caf50',
  java: '#b5483b',
  curator: '#8e5bb5',
};

const BAR = 14;
const GAP = 4;
const GROUP_HEAD = 22;
const GROUP_GAP = 12;
const LABEL_W = 70;
const PANEL_W = 330;
const TEXT_W = 150;
const WIDTH = 2 * (LABEL_W + PANEL_W + TEXT_W) + 20;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function panel(
  x0: number,
  y: number,
  bars: { id: ContenderId; value: Spread }[],
  unit: (n: number, value: Spread) => string,
): string[] {
  const max = Math.max(...bars.map((b) => b.value.max), 1e-9);
  const out: string[] = [];
  bars.forEach((bar, i) => {
    const top = y + i * (BAR + GAP);
    const w = (bar.value.median / max) * PANEL_W;
    out.push(
      `<text x="${x0 + LABEL_W - 6}" y="${top + BAR - 3}" text-anchor="end">${esc(contenderShort[bar.id])}</text>`,
      `<rect x="${x0 + LABEL_W}" y="${top}" width="${w.toFixed(1)}" height="${BAR}" fill="${colors[bar.id]}"/>`,
    );
    if (bar.value.min !== bar.value.max) {
      const a = x0 + LABEL_W + (bar.value.min / max) * PANEL_W;
      const b = x0 + LABEL_W + (bar.value.max / max) * PANEL_W;
      const mid = top + BAR / 2;
      out.push(
        `<path d="M${a.toFixed(1)} ${mid}H${b.toFixed(1)}M${a.toFixed(1)} ${mid - 4}v8M${b.toFixed(1)} ${mid - 4}v8" stroke="#222" fill="none"/>`,
      );
    }
    out.push(
      `<text x="${x0 + LABEL_W + PANEL_W + 6}" y="${top + BAR - 3}">${esc(unit(bar.value.median, bar.value))}</text>`,
    );
  });
  return out;
}

function group(summary: CaseSummary, y: number): { svg: string[]; height: number } {
  // For latency-kind cases ops/s only echoes the pacing: chart p50 with a whisker up to p99 instead.
  const latencyKind =
    summary.case.kind === 'latency' || summary.case.kind === 'session' || summary.case.kind === 'watch';
  const ops = latencyKind
    ? summary.contenders.flatMap((c) =>
        c.latency
          ? [{ id: c.contender, value: { median: c.latency.p50, min: c.latency.p50, max: c.latency.p99 } }]
          : [],
      )
    : summary.contenders.flatMap((c) => (c.opsPerSec ? [{ id: c.contender, value: c.opsPerSec }] : []));
  const cpu = summary.contenders.flatMap((c) =>
    c.cpuUsPerOp ? [{ id: c.contender, value: c.cpuUsPerOp }] : [],
  );
  const svg = [
    `<text x="10" y="${y + 15}" font-weight="bold">${esc(`${summary.case.key}: ${summary.case.title}`)}</text>`,
  ];
  svg.push(
    ...panel(0, y + GROUP_HEAD, ops, (n, v) =>
      latencyKind ? `p50 ${micros(n)} µs, p99 ${micros(v.max)}` : `${int(n)} ops/s`,
    ),
  );
  svg.push(...panel(LABEL_W + PANEL_W + TEXT_W + 20, y + GROUP_HEAD, cpu, (n) => `${micros(n)} µs/op`));
  return { svg, height: GROUP_HEAD + Math.max(ops.length, 1) * (BAR + GAP) + GROUP_GAP };
}

/** Renders the chart for every case that has at least one successful contender. */
export function renderSvg(report: RunReport): string {
  const body: string[] = [];
  let y = 50;
  for (const summary of report.cases) {
    if (!summary.contenders.some((c) => c.opsPerSec)) continue;
    const g = group(summary, y);
    body.push(...g.svg);
    y += g.height;
  }
  const title = `zkwire bench ${report.stamp}: ops/s (left, median with min–max over ${report.options.rounds} round(s); latency cases: p50 with a whisker to p99) and client CPU µs/op (right)`;
  const sub = `${report.server.description}, ZooKeeper ${report.server.version}; ${report.server.pinning}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y + 10}" viewBox="0 0 ${WIDTH} ${y + 10}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="10" y="38" fill="#555">${esc(sub)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
