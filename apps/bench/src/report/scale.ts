/**
 * The scale scenarios in the report: the slope of each total cost against size (log-log: 1 is linear), the
 * series svg.ts draws, and the targets judged on ours alone.
 */
import { contenders } from '../contenders/index.js';
import { scaleViews } from '../scale/figures.js';
import { logLogSlope, type SizePoint, stepSlopes } from '../scale/slope.js';
import type { CaseSummary } from '../stats.js';
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
