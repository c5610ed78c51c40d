import { describe, expect, it } from 'vitest';
import { sortContenders } from '../internal-common/sequence-sort.js';
import { standardPredicate } from './lock-internals.js';
import { READ_WRITE_SORT_NAMES, readLockPredicate } from './read-write-predicates.js';

const p = (id: number) => `_c_${String(id).padStart(8, '0')}-0000-4000-8000-000000000000-`;

describe('standardPredicate (mutex, maxLeases 1)', () => {
  const sorted = sortContenders(
    [`${p(2)}lock-0000000002`, `${p(1)}lock-0000000001`, `${p(3)}lock-0000000005`],
    'lock-',
  );

  it('grants the lowest node', () => {
    expect(standardPredicate(1)(sorted, `${p(1)}lock-0000000001`)).toEqual({ acquired: true });
  });

  it('makes the others wait on their immediate predecessor only', () => {
    expect(standardPredicate(1)(sorted, `${p(3)}lock-0000000005`)).toEqual({
      acquired: false,
      watch: `${p(2)}lock-0000000002`,
    });
  });

  it('reports a missing node as undefined (the caller re-creates it)', () => {
    expect(standardPredicate(1)(sorted, `${p(9)}lock-0000000009`)).toBeUndefined();
  });

  it('grants the first maxLeases and watches idx - maxLeases (semaphore v1)', () => {
    expect(standardPredicate(2)(sorted, `${p(2)}lock-0000000002`)).toEqual({ acquired: true });
    expect(standardPredicate(2)(sorted, `${p(3)}lock-0000000005`)).toEqual({
      acquired: false,
      watch: `${p(1)}lock-0000000001`,
    });
  });
});

describe('readLockPredicate', () => {
  const names = {
    r0: `${p(1)}__READ__0000000000`,
    w1: `${p(2)}__WRIT__0000000001`,
    r2: `${p(3)}__READ__0000000002`,
    w3: `${p(4)}__WRIT__0000000003`,
    r4: `${p(5)}__READ__0000000004`,
  };
  const sorted = sortContenders(Object.values(names).reverse(), READ_WRITE_SORT_NAMES);
  const notOwner = readLockPredicate(() => false);

  it('grants readers before the first writer', () => {
    expect(notOwner(sorted, names.r0)).toEqual({ acquired: true });
  });

  it('makes a reader behind writers wait on the FIRST writer, not the nearest', () => {
    expect(notOwner(sorted, names.r2)).toEqual({ acquired: false, watch: names.w1 });
    expect(notOwner(sorted, names.r4)).toEqual({ acquired: false, watch: names.w1 });
  });

  it('grants at once when this object holds the write lock (downgrade)', () => {
    expect(readLockPredicate(() => true)(sorted, names.r4)).toEqual({ acquired: true });
  });

  it('reports a missing node as undefined', () => {
    expect(notOwner(sorted, `${p(9)}__READ__0000000009`)).toBeUndefined();
  });

  it('places a 5.5 downgrade read node at its write node and lets it hold after the write node goes', () => {
    const downgraded = `${p(2)}__READ__0000000001`;
    const after = sortContenders([names.w3, downgraded, names.r0], READ_WRITE_SORT_NAMES);
    expect(after).toEqual([names.r0, downgraded, names.w3]);
    expect(notOwner(after, downgraded)).toEqual({ acquired: true });
  });
});
