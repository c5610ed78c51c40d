import { describe, expect, it } from 'vitest';
import { expandCases } from './scenarios.js';
import { type Observation, summarize } from './stats.js';
import { checkTargets, serverBoundNote } from './targets.js';
import type { ContenderId } from './types.js';

const cases = expandCases(['getData'], { quick: true, rate: 2000 });
const contenders: ContenderId[] = ['ours', 'raw', 'node-zookeeper-client', 'java'];

function observe(rates: Record<string, [number, number]>): Observation[] {
  return Object.entries(rates).map(([contender, [opsPerSec, cpuUsPerOp]]) => ({
    round: 1,
    caseKey: 'getData@1000',
    contender: contender as ContenderId,
    result: { ok: true, ops: opsPerSec, elapsedMs: 1000, cpuUs: opsPerSec * cpuUsPerOp, errors: 0 },
  }));
}

describe('checkTargets', () => {
  it('marks each target met, missed or not measured', () => {
    const summaries = summarize(
      cases,
      contenders,
      observe({
        ours: [30_000, 4],
        raw: [29_000, 3],
        'node-zookeeper-client': [15_000, 20],
        java: [25_000, 30],
      }),
    );
    const byTarget = Object.fromEntries(checkTargets(summaries).map((t) => [t.target, t.status]));
    expect(byTarget['getData@1000: ours / ceiling >= 0.95']).toBe('met');
    // Retired: the server caps every client near the same rate.
    expect(byTarget['getData@1000: ours / node-zookeeper-client >= 1.5']).toBeUndefined();
    expect(byTarget['open-loop getData at 50% and 90% of saturation: p99 ours <= 1.1 x raw limit']).toBe(
      'not measured',
    );
    expect(byTarget['getData@1000: CPU/op ours < Java client']).toBe('met');
    expect(byTarget['getData@1000: CPU/op ours < 1/3 x node-zookeeper-client']).toBe('met');
  });

  it('misses the CPU target against node-zookeeper-client at a third or more of its CPU per op', () => {
    const summaries = summarize(
      cases,
      contenders,
      observe({ ours: [30_000, 7], raw: [29_000, 6], 'node-zookeeper-client': [28_000, 20] }),
    );
    const nzc = checkTargets(summaries).find((t) => t.target.includes('1/3 x node-zookeeper-client'));
    expect(nzc?.status).toBe('missed');
    expect(nzc?.measured).toBe('7.00 vs 20.00 µs');
  });

  it('misses the ceiling target when ours is slower than the best other in its round', () => {
    const summaries = summarize(cases, contenders, observe({ ours: [20_000, 4], raw: [29_000, 3] }));
    expect(checkTargets(summaries)[0]).toMatchObject({
      target: 'getData@1000: ours / ceiling >= 0.95',
      status: 'missed',
    });
  });

  it('checks multi and getChildren CPU per op against twice the raw limit', () => {
    const multi = expandCases(['multi'], { quick: false, rate: 2000, inFlight: [256] });
    const observations: Observation[] = [
      { contender: 'ours', cpu: 30 },
      { contender: 'raw', cpu: 10 },
    ].map(({ contender, cpu }) => ({
      round: 1,
      caseKey: 'multi@256',
      contender: contender as ContenderId,
      result: { ok: true, ops: 10_000, elapsedMs: 1000, cpuUs: 10_000 * cpu, errors: 0 },
    }));
    const check = checkTargets(summarize(multi, ['ours', 'raw'], observations)).find((t) =>
      t.target.startsWith('multi@256: CPU/op'),
    );
    expect(check).toMatchObject({ status: 'missed', measured: '30.00 vs 10.00 µs' });
  });
});

describe('serverBoundNote', () => {
  it('speaks up when everyone runs within 15% of the best, quoting CPU per op', () => {
    const summaries = summarize(
      cases,
      contenders,
      observe({
        ours: [29_000, 10],
        raw: [29_500, 6],
        'node-zookeeper-client': [27_000, 25],
        java: [26_000, 30],
      }),
    );
    const note = serverBoundNote(summaries);
    expect(note).toContain('the server set the pace');
    expect(note).toContain('node-zookeeper-client 2.5×');
  });

  it('stays quiet when the clients differ', () => {
    const summaries = summarize(
      cases,
      contenders,
      observe({ ours: [29_000, 10], 'node-zookeeper-client': [15_000, 25] }),
    );
    expect(serverBoundNote(summaries)).toBeUndefined();
  });
});
