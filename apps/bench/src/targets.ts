/**
 * The targets of targets.json, judged on a run's summaries (in the report, never in tests). A verdict is the
 * median's; the median's 95% interval is shown beside it, and a bar inside the interval means another run
 * may well give the other verdict.
 */
import { readFileSync } from 'node:fs';
import type { CaseSummary, Figure, Spread } from './stats.js';
import type { ContenderId } from './types.js';

export interface Target {
  cases: string[];
  figure: Figure;
  vs: ContenderId | 'ceiling';
  min?: number;
  max?: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  status: 'met' | 'missed' | 'not measured';
}

const figureNames: Record<Figure, string> = {
  opsPerSec: 'ops/s',
  cpuUsPerOp: 'CPU/op',
  p99: 'p99',
  heapPerUnit: 'heap/unit',
  rssPerUnit: 'RSS/unit',
  timeMs: 'time',
};

/** The targets in apps/bench/targets.json. */
export function loadTargets(file = new URL('../targets.json', import.meta.url)): Target[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { targets: Target[] }).targets;
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
const matcher = (pattern: string) => new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);

function verdict(target: Target, ratio: Spread): 'met' | 'missed' {
  const low = target.min === undefined || ratio.median >= target.min;
  const high = target.max === undefined || ratio.median <= target.max;
  return low && high ? 'met' : 'missed';
}

function measuredText(target: Target, ratio: Spread, ceiling: string): string {
  const bar = target.min ?? target.max ?? 0;
  const i = ratio.interval;
  const inside = i && i.low <= bar && bar <= i.high ? '; the bar is inside it' : '';
  const interval = i
    ? ` (95% interval ${i.low.toFixed(2)}–${i.high.toFixed(2)}, ${i.count} pairs${inside})`
    : '';
  return `${ratio.median.toFixed(2)}${interval}${ceiling}`;
}

/**
 * Every target against every case of the run it names (targets of cases or contenders the run did not include
 * are left out: targets.json lists them all); a case that ran without a ratio to judge is not measured.
 */
export function checkTargets(summaries: readonly CaseSummary[], targets: readonly Target[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const target of targets) {
    const bound = target.min !== undefined ? `>= ${target.min}` : `<= ${target.max}`;
    for (const pattern of target.cases) {
      // `*@1000` means the depths of the throughput cases: a scale case is matched only by its own name
      const matching = summaries.filter(
        (s) => matcher(pattern).test(s.case.key) && !(s.case.kind === 'scale' && pattern.startsWith('*')),
      );
      for (const summary of matching) {
        // a contender the run left out (--contenders) is no target of this run
        if (target.vs !== 'ceiling' && !summary.contenders.some((c) => c.contender === target.vs)) continue;
        const vs = target.vs === 'ceiling' ? summary.ceiling : target.vs;
        const text = `${summary.case.key}: ${figureNames[target.figure]} ours / ${target.vs} ${bound}`;
        const ratio = vs && summary.vs[target.figure]?.[vs];
        if (!ratio) {
          checks.push({ target: text, measured: '-', status: 'not measured' });
          continue;
        }
        // an open loop that could not keep its rate measured a saturated client, not its latency
        const ours = summary.contenders.find((c) => c.contender === 'ours');
        const behind = ours?.fellBehind && 2 * ours.fellBehind > ours.rounds;
        const ceiling = target.vs === 'ceiling' ? `; ceiling: ${vs}` : '';
        const note = behind ? `; ours fell behind the rate in ${ours.fellBehind} round(s)` : '';
        checks.push({
          target: text,
          measured: measuredText(target, ratio, ceiling) + note,
          status: behind ? 'missed' : verdict(target, ratio),
        });
      }
    }
  }
  return checks;
}
