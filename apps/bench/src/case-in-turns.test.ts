import { describe, expect, it } from 'vitest';
import { noteTurnTrouble, takesTurns } from './case-in-turns.js';
import type { CellResult } from './types.js';

const turns = { gapMs: 250, cycles: 3 };
const figures = { ok: true, ops: 900, elapsedMs: 960, cpuUs: 5000, errors: 0 } as const;

describe('takesTurns', () => {
  it('runs throughput and open-loop latency cases in turns, the others one contender after another', () => {
    expect(['throughput', 'latency'].every((k) => takesTurns(k as never))).toBe(true);
    expect(['session', 'watch', 'recipe', 'memory', 'codec'].some((k) => takesTurns(k as never))).toBe(false);
  });
});

describe('noteTurnTrouble', () => {
  it('adds to an open-loop cell’s note that its requests outlived the gap and that turns were lost', () => {
    const result: CellResult = { ...figures, note: '900 req/s; send lag …', drainMs: 400, lostTurns: 1 };
    const noted = noteTurnTrouble(result, turns);
    expect(noted.ok && noted.note).toBe(
      '900 req/s; send lag …; its requests in flight took up to 400 ms to finish after a turn, more than the 250 ms gap, so the next turn began under load (raise --turn-gap); 1 of its 3 turns were lost (its event loop was busy through them) and left out',
    );
  });

  it('leaves a cell whose turns went as planned, and a failed one, as they are', () => {
    const clean: CellResult = { ...figures, drainMs: 250, lostTurns: 0 };
    expect(noteTurnTrouble(clean, turns)).toBe(clean);
    const failed: CellResult = { ok: false, error: 'no operation completed' };
    expect(noteTurnTrouble(failed, turns)).toBe(failed);
  });
});
