import { describe, expect, it } from 'vitest';
import { TurnPacer } from './turn-pacer.js';

/** A 100 ms turn planned at a fractional performance.now() time, with a 20 ms ramp. */
const startAt = 1000.37;
const turn = { startAt, recordFrom: startAt + 20, endAt: startAt + 100 };

/** The requests of a whole turn that the pacer records. */
function recordedOf(pacer: TurnPacer): number[] {
  const ks: number[] = [];
  for (let k = 1; k <= pacer.due(turn.endAt); k++) if (pacer.recorded(k)) ks.push(k);
  return ks;
}

describe('TurnPacer', () => {
  it('counts the requests due from the turn’s planned start, one every 1/rate s', () => {
    const pacer = new TurnPacer(2_000, turn);
    expect(pacer.due(startAt - 5)).toBe(0);
    expect(pacer.due(startAt)).toBe(0);
    expect(pacer.due(startAt + 0.5)).toBe(1);
    expect(pacer.due(startAt + 13)).toBe(26);
    expect(pacer.dueAfterNs(26)).toBe(13_000_000);
  });

  it('sends nothing that fell due after the turn’s end, however late the tick', () => {
    const pacer = new TurnPacer(2_000, turn);
    expect(pacer.due(turn.endAt)).toBe(200);
    expect(pacer.due(turn.endAt + 250)).toBe(200);
  });

  it('records the requests due from the ramp’s end up to, not at, the turn’s end', () => {
    const pacer = new TurnPacer(1_000, turn);
    expect(pacer.recorded(19)).toBe(false);
    expect(pacer.recorded(20)).toBe(true);
    expect(pacer.recorded(99)).toBe(true);
    // due exactly at the end: sent (a late tick owes it) but not recorded
    expect(pacer.recorded(100)).toBe(false);
    const ks = recordedOf(pacer);
    expect(ks).toHaveLength(80);
    expect([ks[0], ks.at(-1)]).toEqual([20, 99]);
  });

  it('records the window’s share of the rate at rates that do not divide a millisecond', () => {
    // 3,000/s: one every 0.333 ms; 80 ms of window hold 240 of them
    expect(recordedOf(new TurnPacer(3_000, turn))).toHaveLength(240);
    // 700/s: k / 0.7 ms from 20 (k = 14) to below 100 (k = 69)
    const ks = recordedOf(new TurnPacer(700, turn));
    expect([ks.length, ks[0], ks.at(-1)]).toEqual([56, 14, 69]);
  });
});
