import { describe, expect, it } from 'vitest';
import { ConnectionLossError } from '../util/errors.js';
import { type LivenessClock, livenessVerdict, nextLivenessCheck } from './liveness.js';

const clock = (over: Partial<LivenessClock> = {}): LivenessClock => ({
  lastReceived: 1_000,
  lastSent: 1_000,
  waitingDrain: false,
  partialSince: 0,
  ...over,
});

describe('liveness rules', () => {
  it('ends the connection after silence longer than the read timeout', () => {
    const verdict = livenessVerdict(clock(), 4_000, 5_001);
    expect(verdict).toBeInstanceOf(ConnectionLossError);
    expect((verdict as ConnectionLossError).cause).toMatchObject({ message: 'nothing received for 4000 ms' });
  });

  it('ends the connection when a frame stays unfinished past the read timeout', () => {
    const verdict = livenessVerdict(
      clock({ lastReceived: 5_000, lastSent: 5_000, partialSince: 1_000 }),
      4_000,
      5_001,
    );
    expect((verdict as ConnectionLossError).cause).toMatchObject({
      message: expect.stringContaining('a reply frame did not complete within 4000 ms'),
    });
  });

  it('pings after idle sending (Java: read timeout / 2 under 2 s), never while waiting for drain', () => {
    expect(livenessVerdict(clock(), 1_000, 1_499)).toBeUndefined();
    expect(livenessVerdict(clock(), 1_000, 1_500)).toBe('ping');
    expect(livenessVerdict(clock({ waitingDrain: true }), 1_000, 1_500)).toBeUndefined();
  });

  it('wakes at the earliest of the ping, the read timeout and the partial frame deadline', () => {
    // read timeout 4 s: ping after 1,001 ms idle (half minus 1 s, at least 1,001)
    expect(nextLivenessCheck(clock(), 4_000)).toBe(1_000 + 1_001 + 1);
    expect(nextLivenessCheck(clock({ lastSent: 9_000, partialSince: 2_000 }), 4_000)).toBe(5_001);
  });
});
