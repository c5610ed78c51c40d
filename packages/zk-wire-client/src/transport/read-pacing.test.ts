import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../util/errors.js';
import { ReadPacer, type ReadPacingSettings, readPacingSettings } from './read-pacing.js';

describe('readCoalescing option', () => {
  it('is on by default, off with false, and takes its own settings', () => {
    expect(readPacingSettings(undefined)).toEqual({ minInFlight: 64, maxDelayMs: 4 });
    expect(readPacingSettings(true)).toEqual({ minInFlight: 64, maxDelayMs: 4 });
    expect(readPacingSettings(false)).toBeUndefined();
    expect(readPacingSettings({ minInFlight: 500 })).toEqual({ minInFlight: 500, maxDelayMs: 4 });
    expect(readPacingSettings({ delayMs: 5 })).toEqual({ minInFlight: 64, delayMs: 5, maxDelayMs: 4 });
    expect(readPacingSettings({ maxDelayMs: 10 })).toEqual({ minInFlight: 64, maxDelayMs: 10 });
  });

  it('refuses bad settings, naming the one at fault', () => {
    const refused = (option: unknown) => {
      try {
        readPacingSettings(option as never);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidArgumentError);
        return (error as InvalidArgumentError).message;
      }
      throw new Error(`accepted ${JSON.stringify(option)}`);
    };
    expect(refused({ delayMs: 0 })).toMatch(/readCoalescing\.delayMs/);
    expect(refused({ delayMs: 51 })).toMatch(/readCoalescing\.delayMs/);
    expect(refused({ delayMs: 1.5 })).toMatch(/readCoalescing\.delayMs/);
    expect(refused({ maxDelayMs: 0 })).toMatch(/readCoalescing\.maxDelayMs/);
    expect(refused({ maxDelayMs: 51 })).toMatch(/readCoalescing\.maxDelayMs/);
    expect(refused({ minInFlight: 0 })).toMatch(/readCoalescing\.minInFlight/);
    expect(refused({ minInFlight: Number.NaN })).toMatch(/readCoalescing\.minInFlight/);
    expect(refused('yes')).toMatch(/readCoalescing/);
    expect(refused(null)).toMatch(/readCoalescing/);
  });
});

/** The read buffer of the pacers below, as a connection gives it. */
const READ_BUFFER = 64 * 1024;

/**
 * A pacer that has seen one 20 ms window of a closed loop (each read's callers write their successors at
 * once) at `perMs` replies and `bytesPerMs` bytes per ms; returns it and the time now.
 */
function measured(
  perMs: number,
  settings: ReadPacingSettings,
  bytesPerMs = 0,
): { pacer: ReadPacer; now: number } {
  const pacer = new ReadPacer(settings, 0, READ_BUFFER);
  for (let t = 1; t <= 20; t++) {
    pacer.noteWrite(100, true);
    pacer.afterRead(t, perMs, 0, bytesPerMs);
  }
  return { pacer, now: 20 };
}

describe('ReadPacer, adaptive (the default)', () => {
  const settings = { minInFlight: 64, maxDelayMs: 4 };

  it('does not wait before it knows the reply rate', () => {
    const pacer = new ReadPacer(settings, 0);
    expect(pacer.afterRead(1, 2, 1000)).toBe(0);
    expect(pacer.afterRead(19, 2, 1000)).toBe(0);
  });

  it('waits for about 32 replies at the measured rate, in whole ms', () => {
    const { pacer, now } = measured(40, settings); // 40 replies per ms: 32 take 0.8 ms, rounded to 1
    expect(pacer.afterRead(now + 0.1, 2, 1000)).toBe(1);
    const slow = measured(10, settings).pacer; // 10 per ms: 3.2 ms, rounded to 3
    expect(slow.afterRead(now + 0.1, 2, 1000)).toBe(3);
    const slower = measured(5, settings).pacer; // 6.4 ms, capped at maxDelayMs (4)
    expect(slower.afterRead(now + 0.1, 2, 1000)).toBe(4);
  });

  it('waits only while the server answers at most half of what is in flight during the wait', () => {
    const { pacer, now } = measured(60, settings); // wait 1 ms: 60 replies expected
    expect(pacer.afterRead(now + 0.1, 2, 120)).toBe(1);
    expect(pacer.afterRead(now + 0.2, 2, 119)).toBe(0);
    const slow = measured(10, settings).pacer; // wait 3 ms: 30 expected
    expect(slow.afterRead(now + 0.1, 2, 64)).toBe(3);
  });

  it('never waits below minInFlight, nor after a read that filled the buffer', () => {
    const { pacer, now } = measured(5, settings);
    expect(pacer.afterRead(now + 0.1, 2, 63)).toBe(0);
    expect(pacer.afterRead(now + 0.2, 2, 64)).toBe(4);
    expect(pacer.afterRead(now + 0.3, 300, 1000, READ_BUFFER)).toBe(0);
  });

  it('forgets the rate after a window with fewer replies than minInFlight (a light load)', () => {
    const { pacer } = measured(45, settings);
    expect(pacer.afterRead(21, 2, 1000)).toBe(1);
    expect(pacer.afterRead(41, 10, 1000)).toBe(0); // window 20..41 held 12 replies: rate unknown
    expect(pacer.afterRead(42, 2, 1000)).toBe(0);
  });

  it('waits only after a window whose writes went out mostly in the turn of a read (replies drive requests)', () => {
    const openLoop = new ReadPacer(settings, 0);
    for (let t = 1; t <= 20; t++) {
      openLoop.noteWrite(100, false); // requests on their own clock (a timer, web requests)
      openLoop.afterRead(t, 40, 0);
    }
    expect(openLoop.afterRead(20.5, 2, 1000)).toBe(0);
    // a window that is three quarters reply-driven is enough
    for (let t = 21; t <= 41; t++) {
      openLoop.noteWrite(300, true);
      openLoop.noteWrite(100, false);
      openLoop.afterRead(t, 40, 0);
    }
    expect(openLoop.afterRead(41.5, 2, 1000)).toBe(1);
    // and a window with no writes at all says nothing good
    for (let t = 42; t <= 90; t++) openLoop.afterRead(t, 40, 0);
    expect(openLoop.afterRead(90.5, 2, 1000)).toBe(0);
  });

  it('waits no longer than one read buffer takes, but 1 ms at least (large replies)', () => {
    // 6 replies per ms of 15,000 bytes: 90,000 bytes per ms against a 64 KiB read buffer. The batch would
    // ask 5 ms (4, maxDelayMs); the buffer shortens it to the shortest wait, which stays
    const large = measured(6, settings, 90_000).pacer;
    expect(large.afterRead(20.5, 1, 1000, 15_000)).toBe(1);
    // what piled up meanwhile comes in full reads, each followed at once; the partial read after them waits
    expect(large.afterRead(21.6, 4, 1000, READ_BUFFER)).toBe(0);
    expect(large.afterRead(21.7, 2, 1000, 30_000)).toBe(1);
    // 10 per ms of 3,000 bytes (30,000 per ms): the batch asks 3 ms, two fill the buffer
    const medium = measured(10, settings, 30_000).pacer;
    expect(medium.afterRead(20.5, 1, 1000, 3_000)).toBe(2);
  });

  it('stops waiting for two windows when the read after a wait brings more than half of what was in flight', () => {
    // 60 per ms measured (while waiting, say): a 1 ms wait looks safe at 256 in flight (120 expected)
    const { pacer } = measured(60, settings);
    expect(pacer.afterRead(20.1, 2, 256)).toBe(1);
    // but 200 of the 256 came back during it: the server nearly ran dry
    expect(pacer.afterRead(21.4, 200, 256)).toBe(0);
    // no wait for the rest of this window (20..40), though the rate measured before still says it is safe
    expect(pacer.afterRead(21.5, 2, 256)).toBe(0);
    for (let t = 22; t < 40; t++) {
      pacer.noteWrite(100, true);
      expect(pacer.afterRead(t, 60, 256)).toBe(0);
    }
    // nor for the whole next one, measured without waits: 150 per ms
    for (let t = 40; t < 60; t++) {
      pacer.noteWrite(100, true);
      expect(pacer.afterRead(t, 150, 256)).toBe(0);
    }
    // then the fresh rate decides: 150 per ms is too fast to wait on 256 in flight (300 expected in 2 ms)...
    expect(pacer.afterRead(60, 150, 256)).toBe(0);
    expect(pacer.afterRead(60.1, 2, 256)).toBe(0);
    // ... and once the server is slower again (60 per ms over 60..80) waiting resumes
    for (let t = 61; t <= 80; t++) {
      pacer.noteWrite(100, true);
      pacer.afterRead(t, 60, 0);
    }
    expect(pacer.afterRead(80.1, 2, 256)).toBe(1);
  });

  it('holds off twice as long after each overrun in a row, and two windows again after a wait that held', () => {
    const { pacer } = measured(60, settings);
    let now = 20;
    /** Reads 60 replies each ms until one is followed by a wait; returns the ms that took. */
    const msUntilAWait = () => {
      const from = now;
      while (now < from + 1000) {
        now += 1;
        pacer.noteWrite(100, true);
        if (pacer.afterRead(now, 60, 256) > 0) return now - from;
      }
      throw new Error('no wait within a second');
    };
    /** The read after the wait brings `replies` of the 256 in flight. */
    const afterTheWait = (replies: number) => {
      now += 1.2;
      pacer.noteWrite(100, true);
      return pacer.afterRead(now, replies, 256);
    };
    expect(msUntilAWait()).toBe(1);
    expect(afterTheWait(200)).toBe(0); // overran: the rest of this 20 ms window and the next
    const first = msUntilAWait();
    expect(afterTheWait(200)).toBe(0); // again: four windows
    const second = msUntilAWait();
    expect(afterTheWait(200)).toBe(0); // eight
    const third = msUntilAWait();
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThanOrEqual(40);
    expect(second).toBeGreaterThan(60);
    expect(second).toBeLessThanOrEqual(80);
    expect(third).toBeGreaterThan(140);
    expect(third).toBeLessThanOrEqual(160);
    // a wait that held (100 of 256 back) resets it: the next overrun holds off for two windows again
    expect(afterTheWait(100)).toBe(1);
    expect(afterTheWait(200)).toBe(0);
    const afterReset = msUntilAWait();
    expect(afterReset).toBeGreaterThan(20);
    expect(afterReset).toBeLessThanOrEqual(40);
  });

  it('goes on waiting while the read after each wait brings at most half of what was in flight', () => {
    const { pacer } = measured(60, settings);
    expect(pacer.afterRead(20.1, 2, 256)).toBe(1);
    expect(pacer.afterRead(21.3, 128, 256)).toBe(1);
    expect(pacer.afterRead(22.5, 128, 256)).toBe(1);
  });

  it('counts the replies of a wait that took several full reads together', () => {
    const { pacer } = measured(60, settings);
    expect(pacer.afterRead(20.1, 2, 1000)).toBe(1);
    // 340 replies filled the buffer, 100 more came at once: 440 of 1,000, so the wait was safe
    expect(pacer.afterRead(21.3, 340, 1000, READ_BUFFER)).toBe(0);
    expect(pacer.afterRead(21.3, 100, 660)).toBe(1);
    // the next wait: 340 + 340 of 1,000 came back, more than half
    expect(pacer.afterRead(22.5, 340, 1000, READ_BUFFER)).toBe(0);
    expect(pacer.afterRead(22.5, 340, 660)).toBe(0);
    expect(pacer.afterRead(22.6, 2, 1000)).toBe(0);
  });

  it('caps the wait at maxDelayMs', () => {
    const { pacer, now } = measured(1, { minInFlight: 1, maxDelayMs: 10 });
    expect(pacer.afterRead(now + 0.1, 1, 1000)).toBe(10); // 32 replies at 1 per ms: 32 ms, capped
  });
});

describe('ReadPacer, a fixed delayMs', () => {
  const settings = { minInFlight: 64, delayMs: 1, maxDelayMs: 4 };

  it('waits once the requests in flight cover twice the replies expected during the wait', () => {
    const { pacer, now } = measured(45, settings); // 45 replies per ms: 90 expected in 2 × 1 ms
    expect(pacer.afterRead(now + 0.1, 2, 1000)).toBe(1);
    expect(pacer.afterRead(now + 0.2, 2, 90)).toBe(1);
    expect(pacer.afterRead(now + 0.3, 2, 89)).toBe(0);
  });

  it('holds off after a wait the server overran, as the adaptive wait does', () => {
    const { pacer } = measured(45, settings);
    expect(pacer.afterRead(20.1, 2, 200)).toBe(1);
    expect(pacer.afterRead(21.5, 120, 200)).toBe(0);
    expect(pacer.afterRead(21.6, 2, 1000)).toBe(0);
  });

  it('waits longer when asked to, and scales its safety margin with the wait', () => {
    // 10 per ms: 100 expected in 2 × 5 ms
    const { pacer } = measured(10, { minInFlight: 1, delayMs: 5, maxDelayMs: 4 });
    expect(pacer.afterRead(20.5, 1, 100)).toBe(5);
    expect(pacer.afterRead(20.6, 1, 99)).toBe(0);
  });
});
