import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './errors.js';
import { ReadPacer, readPacingSettings } from './read-pacing.js';

describe('readCoalescing option', () => {
  it('is on by default, off with false, and takes its own settings', () => {
    expect(readPacingSettings(undefined)).toEqual({ minInFlight: 64, delayMs: 1 });
    expect(readPacingSettings(true)).toEqual({ minInFlight: 64, delayMs: 1 });
    expect(readPacingSettings(false)).toBeUndefined();
    expect(readPacingSettings({ minInFlight: 500 })).toEqual({ minInFlight: 500, delayMs: 1 });
    expect(readPacingSettings({ delayMs: 5 })).toEqual({ minInFlight: 64, delayMs: 5 });
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
    expect(refused({ minInFlight: 0 })).toMatch(/readCoalescing\.minInFlight/);
    expect(refused({ minInFlight: Number.NaN })).toMatch(/readCoalescing\.minInFlight/);
    expect(refused('yes')).toMatch(/readCoalescing/);
    expect(refused(null)).toMatch(/readCoalescing/);
  });
});

describe('ReadPacer', () => {
  const settings = { minInFlight: 64, delayMs: 1 };

  /** A pacer that has seen one 20 ms window at `perMs` replies per ms; returns it and the time now. */
  function measured(perMs: number): { pacer: ReadPacer; now: number } {
    const pacer = new ReadPacer(settings, 0);
    for (let t = 1; t <= 20; t++) pacer.afterRead(t, perMs, 0, false);
    return { pacer, now: 20 };
  }

  it('does not wait before it knows the reply rate', () => {
    const pacer = new ReadPacer(settings, 0);
    expect(pacer.afterRead(1, 2, 1000, false)).toBe(0);
    expect(pacer.afterRead(19, 2, 1000, false)).toBe(0);
  });

  it('waits once the requests in flight cover twice the replies expected during the wait', () => {
    const { pacer, now } = measured(45); // 45 replies per ms: 90 expected in 2 × 1 ms
    expect(pacer.afterRead(now + 0.1, 2, 1000, false)).toBe(1);
    expect(pacer.afterRead(now + 0.2, 2, 90, false)).toBe(1);
    expect(pacer.afterRead(now + 0.3, 2, 89, false)).toBe(0);
  });

  it('never waits below minInFlight, nor after a read that filled the buffer', () => {
    const { pacer, now } = measured(5);
    expect(pacer.afterRead(now + 0.1, 2, 63, false)).toBe(0);
    expect(pacer.afterRead(now + 0.2, 2, 64, false)).toBe(1);
    expect(pacer.afterRead(now + 0.3, 300, 1000, true)).toBe(0);
  });

  it('forgets the rate after a window with fewer replies than minInFlight (a light load)', () => {
    const { pacer } = measured(45);
    expect(pacer.afterRead(21, 2, 1000, false)).toBe(1);
    expect(pacer.afterRead(41, 10, 1000, false)).toBe(0); // window 20..41 held 12 replies: rate unknown
    expect(pacer.afterRead(42, 2, 1000, false)).toBe(0);
  });

  it('waits longer when asked to, and scales its safety margin with the wait', () => {
    const pacer = new ReadPacer({ minInFlight: 1, delayMs: 5 }, 0);
    for (let t = 1; t <= 20; t++) pacer.afterRead(t, 10, 0, false); // 10 per ms: 100 expected in 2 × 5 ms
    expect(pacer.afterRead(20.5, 1, 100, false)).toBe(5);
    expect(pacer.afterRead(20.6, 1, 99, false)).toBe(0);
  });
});
