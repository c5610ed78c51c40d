import { describe, expect, it } from 'vitest';
import type { SoakEvent } from './events.js';
import { countFaults, countOperations, formatSummary, totalOperations } from './summary.js';

const events: SoakEvent[] = [
  {
    t: 0,
    proc: 'node-1',
    kind: 'acquire',
    resource: 'mutex',
    hold: 'h',
    token: 1,
    node: '/n',
    czxid: '1',
    session: '1',
  },
  {
    t: 0,
    proc: 'node-1',
    kind: 'hold-write',
    resource: 'mutex',
    hold: 'h',
    token: 1,
    zxid: '2',
    fenced: true,
  },
  { t: 0, proc: 'node-1', kind: 'put', id: 'a' },
  { t: 0, proc: 'java-1', kind: 'consume', id: 'a' },
  { t: 0, proc: 'java-1', kind: 'op', op: 'queue-put', ok: false, error: 'CONNECTIONLOSS' },
  { t: 0, proc: 'runner', kind: 'fault', fault: 'cut', target: 'node-1' },
  { t: 0, proc: 'runner', kind: 'fault', fault: 'cut', target: 'java-1' },
];

describe('summary', () => {
  it('counts operations by kind, failures apart from the total', () => {
    const ops = countOperations(events);
    expect(ops.get('mutex holds')).toBe(1);
    expect(ops.get('failed queue-put')).toBe(1);
    expect(totalOperations(ops)).toBe(4);
    expect(countFaults(events)).toEqual(new Map([['cut', 2]]));
  });

  it('ends with the violation count and the replay command', () => {
    const text = formatSummary(
      events,
      [{ rule: 'queue-item-lost', detail: 'item b' }],
      'npm run soak -- --seed 1 --minutes 5',
      ['a note'],
    );
    expect(text).toContain('violations = 1\n  [queue-item-lost] item b');
    expect(text).toContain('note: a note');
    expect(text.trim().endsWith('replay: npm run soak -- --seed 1 --minutes 5')).toBe(true);
  });
});
