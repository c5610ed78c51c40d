import { describe, expect, it } from 'vitest';
import type { TurnGate } from './turn-gate.js';
import { turnCellFigures } from './turn-trace.js';
import { runTurns, type TurnLoop, warmUpAlongside } from './turns.js';

/**
 * A loop that completes one operation every 2 ms while started (3 in flight), reporting to the turn's gate
 * as a real loop does; `busy(turn)` ms of a start block the event loop, as a client's long read does.
 */
function tickingLoop(options: { busy?: (turn: number) => number; completes?: boolean } = {}) {
  const calls: string[] = [];
  let completed = 0;
  let inFlight = 0;
  let starts = 0;
  let timer: NodeJS.Timeout | undefined;
  let gate: TurnGate | undefined;
  let issuing = false;
  const loop: TurnLoop = {
    start(turnGate) {
      calls.push('start');
      gate = turnGate;
      inFlight = 3;
      issuing = true;
      const busyMs = options.busy?.(starts++) ?? 0;
      const until = Date.now() + busyMs;
      while (Date.now() < until) {}
      timer = setInterval(() => {
        if (options.completes === false || inFlight === 0) return;
        completed++;
        if (!issuing || (gate !== undefined && !gate.note(completed, 0))) {
          issuing = false;
          inFlight--;
        }
        if (inFlight === 0) clearInterval(timer);
      }, 2);
    },
    stop() {
      calls.push('stop');
      issuing = false;
      if (options.completes === false) {
        // nothing ever comes back; the requests are given up a little later
        setTimeout(() => {
          inFlight = 0;
          clearInterval(timer);
        }, 5);
      }
    },
    inFlight: () => inFlight,
    completed: () => completed,
    errors: () => 0,
  };
  return { loop, calls };
}

const schedule = { index: 0, of: 1, turnMs: 100, gapMs: 60, cycles: 2, warmUpMs: 0 };

describe('warmUpAlongside', () => {
  it('runs the loop for the time given, ungated, and returns once its requests in flight have finished', async () => {
    const { loop, calls } = tickingLoop();
    const startedAt = Date.now();
    await warmUpAlongside(loop, 60);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(59);
    expect(calls).toEqual(['start', 'stop']);
    expect(loop.completed()).toBeGreaterThan(3);
    expect(loop.inFlight()).toBe(0);
  });

  it('does nothing for 0 ms', async () => {
    const { loop, calls } = tickingLoop();
    await warmUpAlongside(loop, 0);
    expect(calls).toEqual([]);
    expect(loop.completed()).toBe(0);
  });
});

describe('runTurns', () => {
  it('adds up the measured turns, counted by the gate, and leaves the warm-up turn out', async () => {
    const { loop, calls } = tickingLoop();
    const result = await runTurns(loop, schedule, Date.now());
    expect(calls).toEqual(['start', 'stop', 'start', 'stop', 'start', 'stop']);
    expect(result.trace).toHaveLength(3);
    // (on a loaded machine a turn may be lost even here; each one is counted)
    expect(result.lostTurns).toBe(result.trace.slice(1).filter((t) => t.lost).length);
    expect(result.turnRates).toHaveLength(2);
    // CPU per op turn by turn, aligned with the rates: both 0 for a lost turn, both above 0 for a kept one
    expect(result.turnCpuUsPerOp.map((cpu) => cpu > 0)).toEqual(result.turnRates.map((rate) => rate > 0));
    // one completion per 2 ms tick at most, over windows of at most 80 ms each
    expect(result.ops).toBeGreaterThan(0);
    expect(result.ops).toBeLessThanOrEqual(2 * 41);
    expect(result.elapsedMs).toBeGreaterThan(0);
    expect(result.elapsedMs).toBeLessThanOrEqual(2 * 80);
    const kept = result.trace.slice(1).filter((t) => !t.lost);
    expect(result.ops).toBe(kept.reduce((n, t) => n + t.ops, 0));
  });

  it('waits for the requests in flight to finish before the next turn starts', async () => {
    const { loop } = tickingLoop();
    const inFlightAtStart: number[] = [];
    const start = loop.start;
    loop.start = (gate) => {
      inFlightAtStart.push(loop.inFlight());
      start(gate);
    };
    await runTurns(loop, { ...schedule, cycles: 1 }, Date.now());
    expect(inFlightAtStart).toEqual([0, 0]);
  });

  it('says "no operation completed", turn by turn, when nothing came back', async () => {
    const { loop } = tickingLoop({ completes: false });
    const measured = await runTurns(loop, schedule, Date.now());
    expect(measured.trace.map((t) => t.ops)).toEqual([0, 0, 0]);
    expect(measured.trace.map((t) => t.inFlightAtEnd)).toEqual([3, 3, 3]);
    const figures = turnCellFigures(measured, schedule);
    expect(figures.ok).toBe(false);
    expect(figures.ok ? undefined : figures.turnsLost).toBeUndefined();
    const error = figures.ok ? '' : figures.error;
    expect(error).toMatch(
      /^no operation completed in any measured turn \(warm-up \(lost\): began \d+ ms late/,
    );
    expect(error).toContain('; turn 2 (lost): began');
    expect(error).toContain('3 in flight at its end');
  });

  it('gives a cell that completed operations its figures without the trace', async () => {
    const { loop } = tickingLoop();
    const figures = turnCellFigures(await runTurns(loop, { ...schedule, cycles: 1 }, Date.now()), schedule);
    expect(figures.ok && figures.figures.ops).toBeGreaterThan(0);
    expect(figures.ok && 'trace' in figures.figures).toBe(false);
  });

  it('loses a turn whose start held the event loop past its window, and keeps its cycle with a 0 rate', async () => {
    // turn 1's start blocks 160 ms: past its 100 ms turn, so no completion falls inside its window
    const { loop } = tickingLoop({ busy: (turn) => (turn === 1 ? 160 : 0) });
    const measured = await runTurns(loop, { ...schedule, gapMs: 120 }, Date.now());
    expect(measured.trace[1]?.lost).toBe(true);
    expect(measured.turnRates[0]).toBe(0);
    expect(measured.turnCpuUsPerOp[0]).toBe(0);
    expect(measured.lostTurns).toBe(measured.trace.slice(1).filter((t) => t.lost).length);
    const turn2 = measured.trace[2];
    expect(measured.ops).toBe(turn2?.lost ? 0 : turn2?.ops);
  });

  it('stops issuing at the first completion past the window, however late the timers fire', async () => {
    const { loop } = tickingLoop({ busy: (turn) => (turn === 1 ? 160 : 0) });
    const completedAtStart: number[] = [];
    const start = loop.start;
    loop.start = (gate) => {
      completedAtStart.push(loop.completed());
      start(gate);
    };
    await runTurns(loop, { ...schedule, gapMs: 120, cycles: 1 }, Date.now());
    // turn 1 began busy past its end: its 3 requests came back, and not one more was issued
    expect(loop.completed() - (completedAtStart[1] as number)).toBe(3);
  });

  it('says a cell whose every measured turn was lost to a busy event loop lost them, turn by turn', async () => {
    // 200 ms busy: its closing timer fires ~100 ms late, more than half the 120 ms gap
    const { loop } = tickingLoop({ busy: (turn) => (turn === 1 ? 200 : 0) });
    const turns = { ...schedule, gapMs: 120, cycles: 1 };
    const figures = turnCellFigures(await runTurns(loop, turns, Date.now()), turns);
    expect(figures.ok).toBe(false);
    expect(figures.ok ? undefined : figures.turnsLost).toBe(true);
    expect(figures.ok ? '' : figures.error).toMatch(
      /^every measured turn was lost: the worker's event loop was busy through it \(warm-up: .*; turn 1 \(lost\): began/,
    );
  });
});
