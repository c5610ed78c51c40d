import { describe, expect, it } from 'vitest';
import { lagTrend } from './lag.js';
import { SetWatchesCounter } from './set-watches.js';
import { logLogSlope, stepSlopes } from './slope.js';
import { FAN_OUT, scaleTreePaths } from './tree.js';

describe('logLogSlope', () => {
  it('is 1 for a cost proportional to size, 2 for a quadratic one, 0 for a flat one', () => {
    const sizes = [1_000, 10_000, 100_000];
    expect(logLogSlope(sizes.map((size) => ({ size, cost: 3 * size })))).toBeCloseTo(1, 10);
    expect(logLogSlope(sizes.map((size) => ({ size, cost: size ** 2 })))).toBeCloseTo(2, 10);
    expect(logLogSlope(sizes.map((size) => ({ size, cost: 42 })))).toBeCloseTo(0, 10);
  });

  it('needs two distinct sizes with costs above 0', () => {
    expect(logLogSlope([{ size: 10, cost: 5 }])).toBeUndefined();
    expect(
      logLogSlope([
        { size: 10, cost: 5 },
        { size: 10, cost: 6 },
      ]),
    ).toBeUndefined();
    expect(
      logLogSlope([
        { size: 10, cost: 5 },
        { size: 100, cost: 0 },
      ]),
    ).toBeUndefined();
  });

  it('shows a superlinear step between neighbouring sizes', () => {
    const steps = stepSlopes([
      { size: 100_000, cost: 100 },
      { size: 10_000, cost: 10 },
      { size: 1_000_000, cost: 10_000 },
    ]);
    expect(steps.map((s) => [s.from, s.to])).toEqual([
      [10_000, 100_000],
      [100_000, 1_000_000],
    ]);
    expect(steps[0]?.slope).toBeCloseTo(1, 10);
    expect(steps[1]?.slope).toBeCloseTo(2, 10);
  });
});

describe('lagTrend', () => {
  const samples = (lag: (atMs: number) => number) =>
    Array.from({ length: 100 }, (_, i) => ({ atMs: i * 100, lagUs: lag(i * 100) }));

  it('calls a steady lag steady', () => {
    const trend = lagTrend(samples((t) => 500 + ((t / 100) % 3) * 10));
    expect(trend?.grows).toBe(false);
    expect(Math.abs(trend?.slopeUsPerS ?? 99)).toBeLessThan(5);
  });

  it('calls a lag that climbs through the window growing, with its slope in µs per second', () => {
    const trend = lagTrend(samples((t) => 200 + t * 2)); // 2 µs per ms: 2,000 µs per s
    expect(trend?.grows).toBe(true);
    expect(trend?.slopeUsPerS).toBeCloseTo(2_000, 6);
    expect(trend?.lastThirdP50Us).toBeGreaterThan(trend?.firstThirdP50Us ?? Infinity);
  });

  it('does not call a doubling of a tiny lag growth', () => {
    expect(lagTrend(samples((t) => 100 + t / 20))?.grows).toBe(false);
  });

  it('needs samples spread over time', () => {
    expect(lagTrend([{ atMs: 1, lagUs: 5 }])).toBeUndefined();
    expect(lagTrend(samples(() => 1).map((s) => ({ ...s, atMs: 0 })))).toBeUndefined();
  });
});

describe('scaleTreePaths', () => {
  it('gives `size` distinct nodes, each after its parent, at most FAN_OUT children per node', () => {
    const paths = scaleTreePaths('/t', 10_101);
    expect(paths).toHaveLength(10_101);
    expect(new Set(paths).size).toBe(paths.length);
    const seen = new Set<string>();
    const children = new Map<string, number>();
    for (const path of paths.slice(1)) {
      const parent = path.slice(0, path.lastIndexOf('/'));
      expect(seen.has(parent) || parent === '/t', path).toBe(true);
      children.set(parent, (children.get(parent) ?? 0) + 1);
      seen.add(path);
    }
    expect(Math.max(...children.values())).toBe(FAN_OUT);
    expect(paths[1]).toBe('/t/n0');
    expect(paths[101]).toBe('/t/n0/n0');
    expect(paths[10_100]).toBe('/t/n99/n99');
  });
});

describe('SetWatchesCounter', () => {
  const frame = (xid: number, type: number, body = 4) => {
    const b = Buffer.alloc(12 + body);
    b.writeInt32BE(8 + body, 0);
    b.writeInt32BE(xid, 4);
    b.writeInt32BE(type, 8);
    return b;
  };
  // a ConnectRequest: no request header; its second word could look like anything
  const connectRequest = frame(-8, 101, 30);

  it('counts SetWatches and SetWatches2 after the ConnectRequest, across chunk boundaries', () => {
    const counter = new SetWatchesCounter();
    const stream = Buffer.concat([connectRequest, frame(-8, 105, 100), frame(1, 4), frame(2, 101, 50)]);
    for (let i = 0; i < stream.length; i += 7) counter.push(stream.subarray(i, i + 7));
    expect(counter.frames).toBe(2);
    expect(counter.bytes).toBe(112 + 62);
  });

  it('starts again at a new connection', () => {
    const counter = new SetWatchesCounter();
    counter.push(Buffer.concat([connectRequest, frame(-8, 105)]));
    counter.reset();
    counter.push(connectRequest);
    expect(counter.frames).toBe(0);
    counter.push(frame(-2, 11)); // a ping is not a SetWatches
    expect(counter.frames).toBe(0);
  });
});
