import { describe, expect, it } from 'vitest';
import { StartBarrier } from './start-barrier.js';

describe('StartBarrier', () => {
  it('lets no worker go before every worker is ready, then gives them one start time after the margin', async () => {
    const barrier = new StartBarrier(3, 50);
    const released: number[] = [];
    const first = barrier.arrive().then((at) => released.push(at));
    const second = barrier.arrive().then((at) => released.push(at));
    await new Promise((r) => setTimeout(r, 20));
    expect(released).toEqual([]);
    const before = Date.now();
    const third = barrier.arrive().then((at) => released.push(at));
    await Promise.all([first, second, third]);
    expect(new Set(released).size).toBe(1);
    expect(released[0]).toBeGreaterThanOrEqual(before + 50);
  });

  it('stops waiting for a worker that ended without being ready', async () => {
    const barrier = new StartBarrier(2, 0);
    let startAt: number | undefined;
    const waiting = barrier.arrive().then((at) => {
      startAt = at;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(startAt).toBeUndefined();
    barrier.withdraw();
    await waiting;
    expect(startAt).toBeTypeOf('number');
  });
});
