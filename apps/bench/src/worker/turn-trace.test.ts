import { describe, expect, it } from 'vitest';
import { isLostTurn, type TurnTrace } from './turn-trace.js';

const turns = { turnMs: 400, gapMs: 250 };
/** A turn that went as planned: 400 ms turn, 80 ms ramp, a 320 ms window closed on time. */
const onTime: TurnTrace = {
  lateMs: 1,
  openedLateMs: 1,
  closedLateMs: 2,
  windowMs: 320,
  ops: 4000,
  inFlightAtEnd: 1000,
  drainMs: 60,
  inFlightAfterDrain: 0,
};

describe('isLostTurn', () => {
  it('keeps a turn whose timers fired on time, or a few ms late', () => {
    expect(isLostTurn(onTime, turns)).toBe(false);
    expect(isLostTurn({ ...onTime, closedLateMs: 20, windowMs: 338 }, turns)).toBe(false);
  });

  it('loses a turn whose window closed more than half the gap late: it ran into the next turn', () => {
    expect(isLostTurn({ ...onTime, closedLateMs: 126, windowMs: 446 }, turns)).toBe(true);
    expect(isLostTurn({ ...onTime, closedLateMs: 1800, windowMs: 2120 }, turns)).toBe(true);
  });

  it('loses a turn whose window opened so late that less than half of it was left', () => {
    expect(isLostTurn({ ...onTime, openedLateMs: 200, windowMs: 120 }, turns)).toBe(true);
    expect(isLostTurn({ ...onTime, openedLateMs: 500, windowMs: 0 }, turns)).toBe(true);
    expect(isLostTurn({ ...onTime, openedLateMs: 100, windowMs: 220 }, turns)).toBe(false);
  });

  it('allows short gaps a floor of 25 ms for late timers', () => {
    expect(isLostTurn({ ...onTime, closedLateMs: 24 }, { turnMs: 400, gapMs: 0 })).toBe(false);
    expect(isLostTurn({ ...onTime, closedLateMs: 26 }, { turnMs: 400, gapMs: 0 })).toBe(true);
  });
});
