import { describe, expect, it } from 'vitest';
import { sequenceOf, sequenceTextOf, sortContenders, sortKeyOf, sortKeyOfMany } from './sequence-sort.js';

const uuidA = '85e5106c-026e-4b80-8ec4-0c2b7ab87ae2';
const uuidB = '39f66644-0000-4000-8000-000000000000';

describe('sortKeyOf (StandardLockInternalsDriver.fixForSorting)', () => {
  it('takes the text after the last lock name', () => {
    expect(sortKeyOf(`_c_${uuidA}-lock-0000000007`, 'lock-')).toBe('0000000007');
    // a name holding the lock name twice: the LAST occurrence wins
    expect(sortKeyOf('lock-lock-0000000003', 'lock-')).toBe('0000000003');
  });

  it('keeps the whole name when the lock name is absent', () => {
    expect(sortKeyOf('foreign', 'lock-')).toBe('foreign');
  });

  it('applies __READ__ then __WRIT__ for the read-write lock', () => {
    expect(sortKeyOfMany(`_c_${uuidA}-__READ__0000000002`, ['__READ__', '__WRIT__'])).toBe('0000000002');
    expect(sortKeyOfMany(`_c_${uuidA}-__WRIT__0000000001`, ['__READ__', '__WRIT__'])).toBe('0000000001');
  });
});

describe('sortContenders', () => {
  it('orders by sequence whatever the uuid prefix', () => {
    const children = [
      `_c_${uuidA}-lock-0000000002`,
      `_c_${uuidB}-lock-0000000000`,
      `_c_${uuidA}-lock-0000000001`,
    ];
    expect(sortContenders(children, 'lock-')).toEqual([children[1], children[2], children[0]]);
  });

  it('sorts names without the lock name by the whole name, after digits, as Java does', () => {
    const kazoo = '0a1b2c3d4e5f__lock__0000000000';
    const curator = `_c_${uuidA}-lock-0000000005`;
    // Java compares "0a1b..." with "0000000005": '0' equal, then 'a' (0x61) > '0' (0x30).
    expect(sortContenders([kazoo, curator], 'lock-')).toEqual([curator, kazoo]);
  });

  it('is stable for equal keys (the 5.5 downgrade read node ties with its write node)', () => {
    const read = `_c_${uuidA}-__READ__0000000003`;
    const write = `_c_${uuidB}-__WRIT__0000000003`;
    expect(sortContenders([read, write], ['__READ__', '__WRIT__'])).toEqual([read, write]);
    expect(sortContenders([write, read], ['__READ__', '__WRIT__'])).toEqual([write, read]);
  });

  it('compares by UTF-16 code units, not locale', () => {
    expect(sortContenders(['lock-b', 'lock-B', 'lock-a'], 'lock-')).toEqual(['lock-B', 'lock-a', 'lock-b']);
  });

  it('leaves its input untouched', () => {
    const children = ['lock-0000000001', 'lock-0000000000'];
    sortContenders(children, 'lock-');
    expect(children).toEqual(['lock-0000000001', 'lock-0000000000']);
  });
});

describe('sequenceOf (fencing token)', () => {
  it('parses the 10-digit suffix, negative after wrap-around', () => {
    expect(sequenceOf(`_c_${uuidA}-lock-0000000042`)).toBe(42);
    expect(sequenceOf('lock--000000001')).toBe(-1);
    expect(sequenceTextOf(`_c_${uuidA}-__WRIT__0000000003`)).toBe('0000000003');
  });

  it('is undefined without a suffix', () => {
    expect(sequenceOf('ready')).toBeUndefined();
    expect(sequenceOf('lock-123')).toBeUndefined();
  });
});
