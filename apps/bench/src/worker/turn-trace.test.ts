import { describe, expect, it } from 'vitest';
import { isLostTurn, type TurnTrace } from './turn-trace.js';

const turns = { turnMs: 400, gapMs: 250 };
/** A turn that went as planned: 400 ms turn, 80 ms ramp, a 320 ms window closed on time. */
const onTime: TurnTrace = {
  lateMs: 1,
  closedLateMs: 2,
  windowMs: 320,
  ops: 4000,
  inFlightAtEnd: 1000,
  drainMs: 60,
  inFlightAfterDrain: 0,
};

describe('isLostTurn', () => {
  it('keeps a turn whose window held most of its planned length', () => {
    expect(isLostTurn(onTime, turns)).toBe(false);
    expect(isLostTurn({ ...onTime, windowMs: 170 }, turns)).toBe(false);
  });

  it('keeps a turn whose closing timer fired late: the window was kept by the completions, not the timer', () => {
    expect(isLostTurn({ ...onTime, closedLateMs: 1800 }, turns)).toBe(false);
  });

  it('loses a turn with less than half of its window between its first and last completions', () => {
    expect(isLostTurn({ ...onTime, windowMs: 150 }, turns)).toBe(true);
    expect(isLostTurn({ ...onTime, windowMs: 0, ops: 0 }, turns)).toBe(true);
  });
});
