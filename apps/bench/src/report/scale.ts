/**
 * The scale scenarios in the report: a table per scenario (each size, each contender, its figures), the slope
 * of each total cost against size (log-log: 1 is linear), and a log-log chart of each scenario's first slope
 * figure against size, one line per contender, so that a superlinear step stands out.
 */
import { contenders } from '../contenders/index.js';
import { scaleViews } from '../scale/figures.js';
import { logLogSlope, type SizePoint, stepSlopes } from '../scale/slope.js';
import type { CaseSummary, ContenderSummary, Spread } from '../stats.js';
import type { ContenderId } from '../types.js';
import { int } from './format.js';

export interface ScaleSeries {
  scenario: string;
  figure: string;
  contender: ContenderId;
  points: SizePoint[];
  slope?: number;
  steps: { from: number; to: number; slope: number }[];
}

const scaleCases = (cases: readonly CaseSummary[], scenario: string) =>
  cases.filter((s) => s.case.kind === 'scale' && s.case.scenario === scenario);

/** The scale scenarios a run measured, in the catalog's order. */
export const scaleScenarios = (cases: readonly CaseSummary[]) =>
  Object.keys(scaleViews).filter((scenario) => scaleCases(cases, scenario).length > 0);

/** Every contender's points and slopes of every slope figure of `scenario`. */
export function scaleSeries(cases: readonly CaseSummary[], scenario: string): ScaleSeries[] {
  const view = scaleViews[scenario];
  if (!view) return [];
  const mine = scaleCases(cases, scenario);
  const ids = [...new Set(mine.flatMap((s) => s.contenders.filter((c) => c.scale).map((c) => c.contender)))];
  return view.slopes.flatMap((figure) =>
    ids.map((contender) => {
      const points = mine.flatMap((s) => {
        const value = s.contenders.find((c) => c.contender === contender)?.scale?.[figure]?.median;
        return value === undefined ? [] : [{ size: s.case.inFlight, cost: value }];
      });
      const slope = logLogSlope(points);
      return {
        scenario,
        figure,
        contender,
        points,
        ...(slope !== undefined && { slope }),
        steps: stepSlopes(points),
      };
    }),
  );
}

function value(key: string, s: Spread | undefined, digits: number): string {
  if (!s) return '-';
  if (key === 'lagGrows') return s.max === 0 ? 'no' : s.min === 1 ? 'yes' : 'in some rounds';
  const show = (n: number) => (digits === 0 ? int(n) : n.toFixed(digits));
  return s.min === s.max ? show(s.median) : `${show(s.median)} (${show(s.min)}–${show(s.max)})`;
}

/** One case's header and rows, for the Results section. */
export function scaleRows(summary: CaseSummary, shown: readonly ContenderSummary[]) {
  const view = scaleViews[summary.case.scenario];
  const columns = view?.columns ?? [];
  const header = ['contender', ...columns.map((c) => c.label)];
  const rows = shown.map((c) => {
    const name = contenders[c.contender].label;
    if (c.failure) {
      const why = c.unsupported ? 'n/a' : `failed: ${c.failure}`;
      return [name, why.length > 80 ? `${why.slice(0, 77)}...` : why, ...columns.slice(1).map(() => '')];
    }
    return [name, ...columns.map((col) => value(col.key, c.scale?.[col.key], col.digits))];
  });
  return { header, rows };
}

/** The Markdown lines of the slopes: one per scenario, figure and contender. */
export function slopeLines(cases: readonly CaseSummary[]): string[] {
  return scaleScenarios(cases).flatMap((scenario) =>
    scaleSeries(cases, scenario).map((series) => {
      const slope = series.slope === undefined ? 'no slope (one size)' : `slope ${series.slope.toFixed(2)}`;
      const steps = series.steps.map((s) => `${int(s.from)}→${int(s.to)} ${s.slope.toFixed(2)}`).join(', ');
      return `${scenario} ${series.figure}, ${contenders[series.contender].short}: ${slope}${steps && series.steps.length > 1 ? ` (steps ${steps})` : ''}`;
    }),
  );
}

/** An idle cost whose slope against sessions stays below this is called linear (1 is exactly linear). */
const LINEAR_SLOPE = 1.15;

/**
 * The issue's targets that are no ratio to another contender, judged on ours: the cache's lag does not grow
 * during the window at any size, and the idle cost of sessions grows linearly with their number.
 */
export function scaleVerdicts(cases: readonly CaseSummary[]): string[] {
  const lines: string[] = [];
  const cache = scaleCases(cases, 'cacheScale');
  if (cache.length > 0) {
    const grows = cache.flatMap((s) => {
      const g = s.contenders.find((c) => c.contender === 'ours')?.scale?.lagGrows;
      return g ? [{ key: s.case.key, g }] : [];
    });
    if (grows.length === 0) lines.push('cacheScale, ours: lag growth not measured');
    else {
      const growing = grows.filter((x) => x.g.max > 0).map((x) => x.key);
      lines.push(
        growing.length === 0
          ? `cacheScale, ours: the lag does not grow during the window at any size (${grows.length} measured): met`
          : `cacheScale, ours: the lag grows during the window in ${growing.join(', ')}: missed`,
      );
    }
  }
  const idle = scaleSeries(cases, 'sessions').find(
    (s) => s.figure === 'idleCpuMsPerS' && s.contender === 'ours',
  );
  if (idle?.slope !== undefined) {
    const met = idle.slope <= LINEAR_SLOPE;
    lines.push(
      `sessions, ours: idle CPU against sessions slope ${idle.slope.toFixed(2)} (linear up to ${LINEAR_SLOPE}): ${met ? 'met' : 'missed'}`,
    );
  }
  return lines;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

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
export function scaleChart(cases: readonly CaseSummary[], scenario: string, y: number) {
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
