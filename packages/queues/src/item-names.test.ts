import { describe, expect, it } from 'vitest';
import { QueueArgumentError } from './errors.js';
import {
  createdPrefix,
  delayItemPrefix,
  delayNaming,
  idItemPrefix,
  idNaming,
  naturalNaming,
  parseDelayEpoch,
  parseIdName,
  parsePriority,
  priorityItemPrefix,
} from './item-names.js';

const seq = (n: number) => String(n).padStart(10, '0');

describe('priority names', () => {
  // The table observed with Curator 5.4.0 (curator/queues.md §9).
  const observed: [number, string][] = [
    [-2147483648, 'queue-0800000000000000004'],
    [-256, 'queue-0FFFFFF000000000006'],
    [-1, 'queue-0FFFFFFFF0000000001'],
    [0, 'queue-1000000000000000002'],
    [5, 'queue-1000000050000000000'],
    [255, 'queue-1000000FF0000000003'],
    [2147483647, 'queue-17FFFFFFF0000000005'],
  ];
  for (const [priority, name] of observed) {
    it(`encodes ${priority} as Curator does and parses it back`, () => {
      expect(priorityItemPrefix(priority) + name.slice(-10)).toBe(name);
      expect(parsePriority(name)).toBe(priority);
    });
  }

  it('sorts lowest priority first, then by sequence', () => {
    const shuffled = [...observed.map(([, name]) => name)].reverse();
    expect(naturalNaming.sort(shuffled).map(parsePriority)).toEqual(observed.map(([p]) => p));
    const same = [`${priorityItemPrefix(3)}${seq(9)}`, `${priorityItemPrefix(3)}${seq(2)}`];
    expect(naturalNaming.sort(same)).toEqual([same[1], same[0]]);
  });

  it('sorts a requeued name (no priority part) before every prioritised name, as Curator does', () => {
    const names = [`${priorityItemPrefix(-2147483648)}${seq(1)}`, `queue-${seq(99)}`];
    expect(naturalNaming.sort(names)[0]).toBe(`queue-${seq(99)}`);
  });

  it('refuses non-integers and values outside int32', () => {
    for (const bad of [1.5, 2 ** 31, -(2 ** 31) - 1, Number.NaN]) {
      expect(() => priorityItemPrefix(bad)).toThrow(QueueArgumentError);
    }
  });
});

describe('delay names', () => {
  it('encodes as observed: minimum 8 upper-case hex digits, no maximum', () => {
    expect(`${delayItemPrefix(1)}${seq(1)}`).toBe('queue-|00000001|0000000001');
    expect(`${delayItemPrefix(0xabc)}${seq(2)}`).toBe('queue-|00000ABC|0000000002');
    expect(delayItemPrefix(0x1a20149314f)).toBe('queue-|1A20149314F|');
  });

  it('parses the hex between the last two separators; unreadable is 0 (due now)', () => {
    expect(parseDelayEpoch('queue-|1A20149314F|0000000000')).toBe(0x1a20149314f);
    expect(parseDelayEpoch('queue-|00000abc|0000000000')).toBe(0xabc);
    expect(parseDelayEpoch('queue-0000000007')).toBe(0);
    expect(parseDelayEpoch('queue-|zz|0000000007')).toBe(0);
    expect(parseDelayEpoch('queue-||0000000007')).toBe(0);
  });

  it('sorts numerically, not lexically (widths differ), keeping listing order on ties', () => {
    const late = `${delayItemPrefix(0x100000000)}${seq(1)}`; // 9 digits
    const early = `${delayItemPrefix(0xfffffff0)}${seq(2)}`; // 8 digits, lexically after "1..."
    const tieA = `${delayItemPrefix(5)}${seq(9)}`;
    const tieB = `${delayItemPrefix(5)}${seq(3)}`;
    expect(delayNaming.sort([late, early, tieA, tieB])).toEqual([tieA, tieB, early, late]);
    expect(delayNaming.sort([`queue-${seq(4)}`, tieA])[0]).toBe(`queue-${seq(4)}`);
  });

  it('refuses a due time that is not a positive integer', () => {
    for (const bad of [0, -5, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => delayItemPrefix(bad)).toThrow(QueueArgumentError);
    }
  });
});

describe('createdPrefix', () => {
  it('strips the server sequence, keeping priority, due time or id', () => {
    expect(createdPrefix('queue-1000000050000000003')).toBe('queue-100000005');
    expect(createdPrefix('queue-|1A20149314F|0000000000')).toBe('queue-|1A20149314F|');
    expect(createdPrefix('queue-|my_id|0000000012')).toBe('queue-|my_id|');
    expect(createdPrefix('queue--000000001')).toBe('queue-');
    expect(createdPrefix('queue-odd')).toBe('queue-');
  });
});

describe('id names', () => {
  it('replaces / and | with _ as observed', () => {
    expect(`${idItemPrefix('my/id|x')}${seq(0)}`).toBe('queue-|my_id_x|0000000000');
    expect(`${idItemPrefix('plain')}${seq(1)}`).toBe('queue-|plain|0000000001');
    expect(() => idItemPrefix('')).toThrow(QueueArgumentError);
  });

  it('parses id and cleaned name; a name without two separators is its own id', () => {
    expect(parseIdName('queue-|abc|0000000004')).toEqual({ id: 'abc', cleaned: 'queue-0000000004' });
    expect(parseIdName('queue-0000000004')).toEqual({ id: 'queue-0000000004', cleaned: 'queue-0000000004' });
  });

  it('sorts by sequence whatever the ids, and requeues under the same id', () => {
    const names = ['queue-|zzz|0000000001', 'queue-|aaa|0000000002', 'queue-|mmm|0000000000'];
    expect(idNaming.sort(names)).toEqual(['queue-|mmm|0000000000', 'queue-|zzz|0000000001', names[1]]);
    expect(idNaming.requeuePrefix('queue-|aaa|0000000002')).toBe('queue-|aaa|');
    expect(idNaming.requeuePrefix('queue-0000000002')).toBe('queue-');
  });
});
