import { describe, expect, it } from 'vitest';
import { batchWatches, encodeSetWatches } from './set-watches.js';

const empty = { data: [], exist: [], child: [], persistent: [], persistentRecursive: [] };

describe('SetWatches batches', () => {
  it('keeps everything in one batch under the limit, in table order', () => {
    const batches = batchWatches({ ...empty, data: ['/a'], exist: ['/b'], persistent: ['/c'] });
    expect(batches).toEqual([{ ...empty, data: ['/a'], exist: ['/b'], persistent: ['/c'] }]);
    expect(batchWatches(empty)).toEqual([]);
  });

  it('closes a batch once the path lengths reach the limit (checked before each path, like Java)', () => {
    const paths = ['/aaaa', '/bbbb', '/cccc', '/dddd', '/eeee'];
    const batches = batchWatches({ ...empty, data: paths.slice(0, 3), child: paths.slice(3) }, 10);
    expect(batches).toEqual([
      { ...empty, data: ['/aaaa', '/bbbb'] },
      { ...empty, data: ['/cccc'], child: ['/dddd'] },
      { ...empty, child: ['/eeee'] },
    ]);
  });

  it('splits 128 KiB of paths into several requests', () => {
    const data = Array.from({ length: 3000 }, (_, i) => `/${'x'.repeat(95)}${String(i).padStart(4, '0')}`);
    const batches = batchWatches({ ...empty, data });
    expect(batches.length).toBe(3);
    expect(batches.flatMap((b) => b.data)).toEqual(data);
    for (const b of batches.slice(0, -1)) expect(b.data.join('').length).toBeGreaterThanOrEqual(128 * 1024);
  });

  it('uses SetWatches (101) without persistent paths and SetWatches2 (105) with them', () => {
    expect(encodeSetWatches(7, 5n, { ...empty, data: ['/a'] }).readInt32BE(8)).toBe(101);
    expect(encodeSetWatches(7, 5n, { ...empty, persistentRecursive: ['/a'] }).readInt32BE(8)).toBe(105);
    const frame = encodeSetWatches(7, 5n, { ...empty, data: ['/a'] });
    expect(frame.readInt32BE(0)).toBe(frame.length - 4);
    expect(frame.readInt32BE(4)).toBe(7);
    expect(frame.readBigInt64BE(12)).toBe(5n);
  });
});
