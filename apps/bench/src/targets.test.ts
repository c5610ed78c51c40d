import { describe, expect, it } from 'vitest';
import type { BenchCase } from './scenarios/catalog.js';
import { scenarios } from './scenarios/catalog.js';
import { type CaseSummary, figures, type Spread } from './stats.js';
import { checkTargets, loadTargets, type Target } from './targets.js';
import { type ContenderId, contenderIds } from './types.js';

const at = (key: string, kind: BenchCase['kind'] = 'throughput'): BenchCase => ({
  key,
  scenario: key.split('@')[0] ?? key,
  kind,
  inFlight: 1,
  title: '',
});
const ratio = (median: number, interval?: Spread['interval']): Spread => ({
  median,
  min: median,
  max: median,
  ...(interval && { interval }),
});

describe('checkTargets', () => {
  const ids = (...names: ContenderId[]) => names.map((contender) => ({ contender, rounds: 1, errors: 0 }));
  const at1: CaseSummary = {
    case: at('getData@1'),
    contenders: ids('ours', 'raw'),
    vs: { opsPerSec: { raw: ratio(0.97) } },
  };
  const summaries: CaseSummary[] = [
    at1,
    {
      case: at('getData@256'),
      contenders: ids('ours', 'raw-paced'),
      ceiling: 'raw-paced',
      vs: { opsPerSec: { 'raw-paced': ratio(0.93, { low: 0.9, high: 0.96, count: 30 }) } },
    },
    { case: at('multi@256'), contenders: ids('ours', 'raw'), vs: { cpuUsPerOp: { raw: ratio(2.5) } } },
  ];

  it('judges every matching case, against the ceiling where named, with the interval beside the median', () => {
    const targets: Target[] = [
      { cases: ['*@1'], figure: 'opsPerSec', vs: 'raw', min: 0.95 },
      { cases: ['*@256'], figure: 'opsPerSec', vs: 'ceiling', min: 0.95 },
      { cases: ['multi@256'], figure: 'cpuUsPerOp', vs: 'raw', max: 2 },
    ];
    expect(checkTargets(summaries, targets)).toEqual([
      { target: 'getData@1: ops/s ours / raw >= 0.95', measured: '0.97', status: 'met' },
      {
        target: 'getData@256: ops/s ours / ceiling >= 0.95',
        measured: '0.93 (95% interval 0.90–0.96, 30 pairs; the bar is inside it); ceiling: raw-paced',
        status: 'missed',
      },
      { target: 'multi@256: ops/s ours / ceiling >= 0.95', measured: '-', status: 'not measured' },
      { target: 'multi@256: CPU/op ours / raw <= 2', measured: '2.50', status: 'missed' },
    ]);
  });

  it('leaves out the cases and the contenders the run did not include', () => {
    const targets: Target[] = [{ cases: ['session', '*@16'], figure: 'cpuUsPerOp', vs: 'raw', max: 1 }];
    expect(checkTargets(summaries, targets)).toEqual([]);
    const ran: CaseSummary = { ...at1, contenders: [{ contender: 'raw', rounds: 1, errors: 0 }] };
    const vsJava: Target[] = [{ cases: ['getData@1'], figure: 'opsPerSec', vs: 'java', min: 1 }];
    expect(checkTargets([ran], vsJava)).toEqual([]);
    const vsRaw: Target[] = [{ cases: ['getData@1'], figure: 'opsPerSec', vs: 'raw', min: 1 }];
    expect(checkTargets([ran], vsRaw)).toMatchObject([{ status: 'missed', measured: '0.97' }]);
  });

  it('misses an open-loop target when ours fell behind its rate in most rounds, whatever the ratio', () => {
    const latency: CaseSummary = {
      case: at('latency50', 'latency'),
      contenders: [
        { contender: 'ours', rounds: 3, errors: 0, fellBehind: 2 },
        { contender: 'raw', rounds: 3, errors: 0 },
      ],
      vs: { p99: { raw: ratio(0.9) } },
    };
    const [check] = checkTargets([latency], [{ cases: ['latency50'], figure: 'p99', vs: 'raw', max: 1.1 }]);
    expect(check).toMatchObject({
      status: 'missed',
      measured: '0.90; ours fell behind the rate in 2 round(s)',
    });
  });
});

describe('targets.json', () => {
  it('names known figures and contenders, a bound, and cases the catalog can make', () => {
    const targets = loadTargets();
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) {
      expect(figures).toContain(t.figure);
      expect([...contenderIds, 'ceiling']).toContain(t.vs);
      expect(t.min !== undefined || t.max !== undefined, JSON.stringify(t)).toBe(true);
      for (const pattern of t.cases) {
        const name = pattern.split('@')[0] ?? '';
        expect(name === '*' || name in scenarios || name.startsWith('memory'), pattern).toBe(true);
      }
    }
  });
});
