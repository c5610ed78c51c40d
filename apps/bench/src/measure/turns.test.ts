import { describe, expect, it } from 'vitest';
import type { TurnSchedule } from '../types.js';
import { runTurns, TurnGate, type TurnLoop } from './turns.js';

describe('TurnGate', () => {
  it('counts from the first completion after its open to the last before its close, then says stop', () => {
    const now = performance.now();
    const gate = new TurnGate(now - 10, now + 60_000);
    expect(gate.note(5, 0)).toBe(true);
    expect(gate.note(12, 1)).toBe(true);
    gate.close();
    expect(gate.note(20, 1)).toBe(false);
    expect(gate.window()).toMatchObject({ ops: 7, errors: 1 });
  });

  it('ignores completions before its open and measures nothing when none came inside it', () => {
    const now = performance.now();
    const gate = new TurnGate(now + 60_000, now + 120_000);
    expect(gate.note(3, 0)).toBe(true);
    gate.close();
    expect(gate.window()).toEqual({ ops: 0, errors: 0, elapsedMs: 0, cpuUs: 0 });
  });
});

/** A loop completing one request every 2 ms while started, reporting to the turn's gate as real loops do. */
function tickingLoop(busyInTurn?: number) {
  let completed = 0;
  let inFlight = 0;
  let starts = 0;
  const ended: boolean[] = [];
  const loop: TurnLoop = {
    start(gate) {
      inFlight = 1;
      if (starts++ === busyInTurn) {
        const until = Date.now() + 250; // the event loop held through the turn, as a long read does
        while (Date.now() < until) {}
      }
      const timer = setInterval(() => {
        completed++;
        if (gate && !gate.note(completed, 0)) {
          inFlight = 0;
          clearInterval(timer);
        }
      }, 2);
    },
    stop() {},
    endTurn: (counted) => ended.push(counted),
    inFlight: () => inFlight,
    completed: () => completed,
    errors: () => 0,
  };
  return { loop, ended };
}

const schedule: TurnSchedule = { index: 0, of: 1, turnMs: 200, gapMs: 40, cycles: 3, warmUpMs: 0 };

describe('runTurns', () => {
  it('leaves the warm-up cycle out and keeps one figure per measured turn', async () => {
    const { loop, ended } = tickingLoop();
    const measured = await runTurns(loop, schedule, Date.now());
    expect(ended[0]).toBe(false);
    expect(ended).toHaveLength(4);
    expect(measured.turnRates).toHaveLength(3);
    // a machine loaded enough can lose a turn: it then counts as lost, never as a rate
    expect(measured.turnRates.filter((r) => r > 0).length + measured.lostTurns).toBe(3);
    expect(measured.ops).toBeGreaterThan(0);
  });

  it('loses a turn whose event loop was held through it, keeping the cycles aligned with a 0', async () => {
    const { loop, ended } = tickingLoop(2);
    const measured = await runTurns(loop, schedule, Date.now());
    expect(measured.lostTurns).toBeGreaterThanOrEqual(1);
    expect(measured.turnRates).toHaveLength(3);
    expect(measured.turnRates[1]).toBe(0);
    expect(ended[2]).toBe(false);
  });
});
