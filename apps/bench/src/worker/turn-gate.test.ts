import { describe, expect, it } from 'vitest';
import { TurnGate } from './turn-gate.js';

/** Holds the thread until performance.now() reaches `at`. */
function spinUntil(at: number): void {
  while (performance.now() < at) {}
}

describe('TurnGate', () => {
  it('counts the completions between its open and close by the clock read at each', () => {
    const t0 = performance.now();
    const gate = new TurnGate(t0 + 20, t0 + 60);
    expect(gate.note(5, 0)).toBe(true); // before the open: not counted
    spinUntil(t0 + 25);
    expect(gate.note(6, 0)).toBe(true); // the first past the open starts the window
    spinUntil(t0 + 40);
    expect(gate.note(9, 1)).toBe(true);
    spinUntil(t0 + 55);
    expect(gate.note(12, 1)).toBe(true);
    spinUntil(t0 + 65);
    expect(gate.note(14, 1)).toBe(false); // past the close: issue no more
    expect(gate.note(15, 1)).toBe(false); // and it stays closed
    expect(gate.note(16, 1)).toBe(false);
    const window = gate.window();
    expect(window.ops).toBe(6); // 12 - 6
    expect(window.errors).toBe(1);
    // from the completion at 25 ms (or a little later) to the one at 55 ms (no later than the 60 ms close)
    expect(window.elapsedMs).toBeGreaterThan(15);
    expect(window.elapsedMs).toBeLessThanOrEqual(35);
    expect(window.cpuUs).toBeGreaterThan(0);
  });

  it('measures nothing when no completion came inside the window', () => {
    const t0 = performance.now();
    const gate = new TurnGate(t0 + 5, t0 + 10);
    expect(gate.note(3, 0)).toBe(true);
    spinUntil(t0 + 15);
    // the next completion came only after the close (the event loop was held through the window)
    expect(gate.note(4, 0)).toBe(false);
    expect(gate.window()).toEqual({ ops: 0, errors: 0, elapsedMs: 0, cpuUs: 0 });
  });

  it("closes at the turn's end when no completion came past it, and stays closed", () => {
    const t0 = performance.now();
    const gate = new TurnGate(t0, t0 + 1_000);
    expect(gate.note(1, 0)).toBe(true);
    expect(gate.note(3, 0)).toBe(true);
    gate.close();
    expect(gate.note(4, 0)).toBe(false);
    gate.close();
    expect(gate.note(5, 0)).toBe(false);
    expect(gate.window().ops).toBe(2);
  });
});
