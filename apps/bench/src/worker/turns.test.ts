import { describe, expect, it } from 'vitest';
import { turnCellFigures } from './turn-trace.js';
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

/** Makes the loop's second start (turn 1) hold the event loop 160 ms: past a 60 ms turn, well into its gap. */
function busyInTurnOne(loop: TurnLoop): void {
  let starts = 0;
  const start = loop.start;
  loop.start = () => {
    start();
    if (++starts === 2) {
      const until = Date.now() + 160;
      while (Date.now() < until) {}
    }
  };
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

  it('keeps a trace of every turn, and turns a cell that completed nothing into an error that shows it', async () => {
    // every read of completed() answers 4: the loop never completes an operation
    const { loop } = scriptedLoop([4, 4, 4, 4, 4, 4]);
    const measured = await runTurns(loop, { index: 0, of: 1, turnMs: 60, gapMs: 40, cycles: 2 }, Date.now());
    expect(measured.trace).toHaveLength(3);
    expect(measured.trace.map((t) => t.ops)).toEqual([0, 0, 0]);
    expect(measured.trace.map((t) => t.inFlightAtEnd)).toEqual([3, 3, 3]);
    expect(measured.lostTurns).toBe(0);
    const figures = turnCellFigures(measured);
    expect(figures.ok).toBe(false);
    expect(figures.ok ? undefined : figures.turnsLost).toBeUndefined();
    const error = figures.ok ? '' : figures.error;
    expect(error).toMatch(
      /^no operation completed in any measured turn \(warm-up: began \d+ ms late, 0 ops in/,
    );
    expect(error).toContain('; turn 2: began');
    expect(error).toContain('3 in flight at its end');
  });

  it('gives a cell that completed operations its figures without the trace', async () => {
    const { loop } = scriptedLoop([0, 5, 10, 17]);
    const figures = turnCellFigures(
      await runTurns(loop, { index: 0, of: 1, turnMs: 60, gapMs: 40, cycles: 1 }, Date.now()),
    );
    expect(figures.ok && figures.figures.ops).toBe(7);
    expect(figures.ok && 'trace' in figures.figures).toBe(false);
  });

  it('leaves out a turn through which the event loop was busy, and keeps its cycle with a 0 rate', async () => {
    // warm-up 0 -> 5, turn 1 (busy) 10 -> 90, turn 2 20 -> 31
    const { loop } = scriptedLoop([0, 5, 10, 90, 20, 31]);
    busyInTurnOne(loop);
    const measured = await runTurns(loop, { index: 0, of: 1, turnMs: 60, gapMs: 120, cycles: 2 }, Date.now());
    expect(measured.trace.map((t) => t.lost)).toEqual([false, true, false]);
    expect(measured.lostTurns).toBe(1);
    expect(measured.ops).toBe(11);
    expect(measured.turnRates).toHaveLength(2);
    expect(measured.turnRates[0]).toBe(0);
    expect(measured.turnRates[1]).toBeGreaterThan(0);
  });

  it('says a cell whose every measured turn was lost lost them, turn by turn', async () => {
    const { loop } = scriptedLoop([0, 5, 10, 90]);
    busyInTurnOne(loop);
    const figures = turnCellFigures(
      await runTurns(loop, { index: 0, of: 1, turnMs: 60, gapMs: 120, cycles: 1 }, Date.now()),
    );
    expect(figures.ok).toBe(false);
    expect(figures.ok ? undefined : figures.turnsLost).toBe(true);
    expect(figures.ok ? '' : figures.error).toMatch(
      /^every measured turn was lost: the worker's event loop was busy through it \(warm-up: .*; turn 1 \(lost\): began/,
    );
  });
});
