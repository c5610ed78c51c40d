import { describe, expect, it } from 'vitest';
import { runTurns, type TurnLoop } from './turns.js';

/** A loop whose completed() answers from a script: two reads per turn, at the window's open and close. */
function scriptedLoop(completedReads: number[]) {
  const calls: string[] = [];
  let reads = 0;
  let inFlight = 0;
  const loop: TurnLoop = {
    start() {
      calls.push('start');
      inFlight = 3;
    },
    stop() {
      calls.push('stop');
      // the requests in flight finish a little later, as they do on a socket
      setTimeout(() => {
        inFlight = 0;
      }, 5);
    },
    inFlight: () => inFlight,
    completed: () => completedReads[reads++] ?? Number.NaN,
    errors: () => 0,
  };
  return { loop, calls, reads: () => reads };
}

describe('runTurns', () => {
  it('adds up the measured turns and leaves the warm-up turn out', async () => {
    // warm-up 0 -> 5 (not counted), then 10 -> 17 and 20 -> 31: 7 + 11 ops
    const { loop, calls, reads } = scriptedLoop([0, 5, 10, 17, 20, 31]);
    const result = await runTurns(loop, { index: 1, of: 2, turnMs: 20, gapMs: 10, cycles: 2 }, Date.now());
    expect(result.ops).toBe(18);
    expect(result.errors).toBe(0);
    expect(reads()).toBe(6);
    expect(calls).toEqual(['start', 'stop', 'start', 'stop', 'start', 'stop']);
    expect(result.elapsedMs).toBeGreaterThan(0);
    expect(result.drainMs).toBeGreaterThanOrEqual(0);
  });

  it('waits for the requests in flight to finish before the next turn starts', async () => {
    const { loop, calls } = scriptedLoop([0, 1, 2, 3]);
    const inFlightAtStart: number[] = [];
    const start = loop.start;
    loop.start = () => {
      inFlightAtStart.push(loop.inFlight());
      start();
    };
    await runTurns(loop, { index: 0, of: 1, turnMs: 10, gapMs: 0, cycles: 1 }, Date.now());
    expect(inFlightAtStart).toEqual([0, 0]);
    expect(calls.filter((c) => c === 'start')).toHaveLength(2);
  });
});
