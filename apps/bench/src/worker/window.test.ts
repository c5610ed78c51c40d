import { describe, expect, it } from 'vitest';
import { CellPhases } from './window.js';

describe('CellPhases.due (the open-loop pacer)', () => {
  it('counts the requests due by now, one every 1/rate s from the start, none after the end', () => {
    const phases = new CellPhases({ warmupMs: 300, durationMs: 1000 }, []);
    expect(phases.due(phases.start, 27_000)).toBe(0);
    expect(phases.due(phases.start + 1, 27_000)).toBe(27);
    expect(phases.due(phases.start + 1.5, 54_000)).toBe(81);
    // a tick that comes late sends everything due by then, and a tick past the end only what was due
    expect(phases.due(phases.start + 1300, 2_000)).toBe(2_600);
    expect(phases.due(phases.start + 5000, 2_000)).toBe(2_600);
  });
});
