import { describe, expect, it } from 'vitest';
import type { HeldResource, SoakEvent } from '../events.js';
import { checkFencing } from './fencing.js';
import { checkHoldLimit, checkOneLeaderPerTerm } from './holds.js';
import { checkAll } from './index.js';
import { checkQueue } from './queue.js';
import { RuleName } from './violation.js';
import { checkCaches, checkCommittedWrites } from './writes.js';

const write = (
  resource: HeldResource,
  hold: string,
  proc: string,
  token: number,
  zxid: number,
  fenced = true,
) => ({ t: 0, proc, kind: 'hold-write', resource, hold, token, zxid: String(zxid), fenced }) as const;

describe('mutual exclusion, by zxid', () => {
  it('passes holds that follow one another in server order', () => {
    const log = [
      write('mutex', 'a', 'node-1', 1, 10),
      write('mutex', 'a', 'node-1', 1, 12),
      write('mutex', 'b', 'java-1', 2, 13),
    ];
    expect(checkHoldLimit(log, 'mutex', 1)).toEqual([]);
  });

  it('reports a hold whose writes interleave with another holder, whatever the log order', () => {
    const log = [
      write('mutex', 'b', 'java-1', 2, 11),
      write('mutex', 'a', 'node-1', 1, 10),
      write('mutex', 'a', 'node-1', 1, 12),
    ];
    const violations = checkHoldLimit(log, 'mutex', 1);
    expect(violations).toHaveLength(1);
    expect(violations[0]?.rule).toBe(RuleName.mutualExclusion);
    expect(violations[0]?.detail).toContain('0xb');
  });

  it('compares zxids as 64-bit integers, not as strings', () => {
    const log = [
      write('mutex', 'a', 'n', 1, 9),
      write('mutex', 'a', 'n', 1, 10),
      write('mutex', 'b', 'n', 2, 100),
    ];
    expect(checkHoldLimit(log, 'mutex', 1)).toEqual([]);
  });
});

describe('lease limit', () => {
  it('passes two leases at once out of two', () => {
    const log = [
      write('semaphore', 'a', 'p', 1, 1),
      write('semaphore', 'b', 'q', 2, 2),
      write('semaphore', 'a', 'p', 1, 3),
      write('semaphore', 'c', 'r', 3, 4),
      write('semaphore', 'b', 'q', 2, 5),
    ];
    expect(checkHoldLimit(log, 'semaphore', 2)).toEqual([]);
  });

  it('reports a third holder while two are alive', () => {
    const log = [
      write('semaphore', 'a', 'p', 1, 1),
      write('semaphore', 'b', 'q', 2, 2),
      write('semaphore', 'c', 'r', 3, 3),
      write('semaphore', 'a', 'p', 1, 4),
      write('semaphore', 'b', 'q', 2, 5),
    ];
    const violations = checkHoldLimit(log, 'semaphore', 2);
    expect(violations.map((v) => v.rule)).toEqual([RuleName.leaseLimit]);
    expect(violations[0]?.detail).toContain('c (r, token 3');
  });
});

describe('one leader per term', () => {
  it('passes one process per term', () => {
    const log = [
      write('leader', 't1', 'node-1', 5, 1),
      write('leader', 't1', 'node-1', 5, 2),
      write('leader', 't2', 'java-1', 7, 3),
    ];
    expect(checkOneLeaderPerTerm(log)).toEqual([]);
  });

  it('reports two processes leading under one term', () => {
    const log = [write('leader', 't1', 'node-1', 5, 1), write('leader', 't1b', 'java-1', 5, 2)];
    expect(checkOneLeaderPerTerm(log).map((v) => v.rule)).toEqual([RuleName.oneLeaderPerTerm]);
  });
});

describe('fencing', () => {
  it('passes tokens that never go down in zxid order', () => {
    const log = [
      write('mutex', 'a', 'p', 3, 1),
      write('mutex', 'a', 'p', 3, 2),
      write('mutex', 'b', 'q', 4, 3),
    ];
    expect(checkFencing(log, 'mutex')).toEqual([]);
  });

  it('reports a stale token accepted after a newer one', () => {
    const log = [write('mutex', 'b', 'q', 4, 3), write('mutex', 'a', 'p', 3, 5)];
    const violations = checkFencing(log, 'mutex');
    expect(violations.map((v) => v.rule)).toEqual([RuleName.staleToken]);
    expect(violations[0]?.detail).toContain('token 3');
  });

  it('ignores writes that did not go through the guard', () => {
    expect(
      checkFencing([write('mutex', 'b', 'q', 4, 3), write('mutex', 'a', 'p', 3, 5, false)], 'mutex'),
    ).toEqual([]);
  });
});

const put = (id: string): SoakEvent => ({ t: 0, proc: 'node-1', kind: 'put', id });
const consume = (id: string): SoakEvent => ({ t: 0, proc: 'java-1', kind: 'consume', id });

describe('queue', () => {
  it('passes when every put was consumed, duplicates allowed', () => {
    expect(checkQueue([put('a'), put('b'), consume('b'), consume('a'), consume('a')])).toEqual([]);
  });

  it('reports an acknowledged put never consumed', () => {
    const violations = checkQueue([put('a'), put('b'), consume('a')]);
    expect(violations.map((v) => v.detail)).toEqual(['item b (put by node-1) was never consumed']);
  });
});

const acked = (path: string, op: 'create' | 'set' | 'delete', data?: string): SoakEvent => ({
  t: 0,
  proc: 'node-1',
  kind: 'write',
  path,
  op,
  ...(data === undefined ? {} : { data }),
});
const finalRead = (nodes: Record<string, string>): SoakEvent => ({
  t: 0,
  proc: 'runner',
  kind: 'final-read',
  root: '/w',
  nodes: Object.fromEntries(Object.entries(nodes).map(([p, data]) => [p, { data, mzxid: '7' }])),
});

describe('committed writes', () => {
  it('passes when every acknowledged state is read back', () => {
    const log = [
      acked('/w/a', 'create', '1'),
      acked('/w/a', 'set', '2'),
      acked('/w/b', 'create', 'x'),
      acked('/w/b', 'delete'),
      finalRead({ '/w/a': '2' }),
    ];
    expect(checkCommittedWrites(log)).toEqual([]);
  });

  it('reports a lost create, a lost set and a delete undone', () => {
    const log = [
      acked('/w/a', 'create', '1'),
      acked('/w/c', 'create', '1'),
      acked('/w/c', 'set', '2'),
      acked('/w/d', 'delete'),
      finalRead({ '/w/c': '1', '/w/d': 'x' }),
    ];
    expect(checkCommittedWrites(log).map((v) => v.detail)).toEqual([
      '/w/a: written (acknowledged), missing',
      '/w/c: acknowledged data "2", read "1"',
      '/w/d: deleted (acknowledged), still there',
    ]);
  });

  it('leaves out paths whose last write has an unknown outcome', () => {
    const log: SoakEvent[] = [
      acked('/w/a', 'create', '1'),
      { t: 0, proc: 'node-1', kind: 'write-unknown', path: '/w/a', error: 'CONNECTIONLOSS' },
      finalRead({}),
    ];
    expect(checkCommittedWrites(log)).toEqual([]);
  });

  it('reports a run that never read back what it wrote', () => {
    expect(checkCommittedWrites([acked('/w/a', 'create', '1')]).map((v) => v.rule)).toEqual([
      RuleName.writeNotVisible,
    ]);
  });
});

describe('caches', () => {
  const dump = (nodes: Record<string, string>): SoakEvent => ({
    t: 0,
    proc: 'node-2',
    kind: 'cache-dump',
    root: '/w',
    nodes: Object.fromEntries(Object.entries(nodes).map(([p, data]) => [p, { data, mzxid: '7' }])),
  });

  it('passes a cache equal to the fresh read', () => {
    expect(checkCaches([dump({ '/w/a': '1' }), finalRead({ '/w/a': '1' })])).toEqual([]);
  });

  it('reports a cache that missed a node, kept a deleted one or holds old data', () => {
    const violations = checkCaches([
      dump({ '/w/a': 'old', '/w/gone': '1' }),
      finalRead({ '/w/a': 'new', '/w/b': '1' }),
    ]);
    expect(violations).toHaveLength(1);
    expect(violations[0]?.detail).toContain('3 node(s) differ');
  });
});

describe('checkAll', () => {
  it('passes a clean run and reports each kind of violation in a dirty one', () => {
    const clean = [
      write('mutex', 'a', 'p', 1, 1),
      write('leader', 'l', 'p', 1, 2),
      put('x'),
      consume('x'),
      acked('/w/a', 'create', '1'),
      finalRead({ '/w/a': '1' }),
    ];
    expect(checkAll(clean)).toEqual([]);
    const dirty = [...clean, write('mutex', 'b', 'q', 0, 3), write('mutex', 'a', 'p', 1, 4), put('y')];
    expect(new Set(checkAll(dirty).map((v) => v.rule))).toEqual(
      new Set([RuleName.mutualExclusion, RuleName.staleToken, RuleName.queueItemLost]),
    );
  });
});
