import { describe, expect, it } from 'vitest';
import { floorGroups, measureFloors } from './floors.js';

describe('bench:floors', () => {
  it('times real work: the decode row reads ten setData results, the encode row a whole frame', () => {
    const groups = floorGroups();
    const row = (name: string) => groups.flatMap((g) => g.rows).find((r) => r.name.startsWith(name));
    const results = row('multiReply.decode')?.run() as { type: string; stat: { version: number } }[];
    expect(results).toHaveLength(10);
    expect(results.every((r) => r.type === 'setData' && r.stat.version === 7)).toBe(true);
    // The Stats-alone row reads at the results' offsets: its last Stat is the tenth node's.
    expect(row('its 10 Stats alone')?.run()).toMatchObject({ czxid: 4105n, version: 7, dataLength: 100 });
    const frame = row('encodeMulti')?.run() as Buffer;
    // length prefix + header + 10 x (MultiHeader + path + data + version) + the closing MultiHeader
    expect(frame.readInt32BE(0)).toBe(frame.length - 4);
    expect(frame.readInt32BE(8)).toBe(14);
    expect(row('allocFrame')?.run()).toHaveLength(frame.length);
  });

  it('gives every row a time and its ratio to the first row of its group', () => {
    const figures = measureFloors(floorGroups(), 1, 2);
    expect(figures.length).toBeGreaterThanOrEqual(9);
    for (const f of figures) expect(f.nsPerCall).toBeGreaterThan(0);
    const firsts = new Map<string, number>();
    for (const f of figures) if (!firsts.has(f.group)) firsts.set(f.group, f.ratio);
    expect([...firsts.values()].every((ratio) => ratio === 1)).toBe(true);
  });
});
