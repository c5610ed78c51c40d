import { describe, expect, it } from 'vitest';
import { Deadline, DeadlineExpired } from './deadline.js';

class BadArgument extends Error {}
const invalid = (argument: string, problem: string) => new BadArgument(`${argument} ${problem}`);

describe('Deadline', () => {
  it('refuses bad options with the caller family error', () => {
    expect(() => Deadline.of({ timeoutMs: -1 }, invalid)).toThrow(BadArgument);
    expect(() => Deadline.of({ timeoutMs: Number.NaN }, invalid)).toThrow(/timeoutMs must be a finite/);
    expect(() => Deadline.of({ timeoutMs: '5' as unknown as number }, invalid)).toThrow(BadArgument);
    expect(() => Deadline.of({ signal: {} as AbortSignal }, invalid)).toThrow(
      /signal must be an AbortSignal/,
    );
  });

  it('passes a settled value through', async () => {
    await expect(Deadline.of({ timeoutMs: 10_000 }, invalid).guard(Promise.resolve(7))).resolves.toBe(7);
    await expect(Deadline.of(undefined, invalid).guard(Promise.reject(new Error('x')))).rejects.toThrow('x');
  });

  it('gives up with DeadlineExpired when the time is up', async () => {
    const never = new Promise<never>(() => {});
    await expect(Deadline.of({ timeoutMs: 0 }, invalid).guard(never)).rejects.toBeInstanceOf(DeadlineExpired);
    await expect(Deadline.of({ timeoutMs: 5 }, invalid).guard(never)).rejects.toBeInstanceOf(DeadlineExpired);
    expect(() => Deadline.of({ timeoutMs: 0 }, invalid).check()).toThrow(DeadlineExpired);
  });

  it('rejects with the abort reason, before or during the wait', async () => {
    const never = new Promise<never>(() => {});
    const reason = new Error('stop');
    await expect(Deadline.of({ signal: AbortSignal.abort(reason) }, invalid).guard(never)).rejects.toBe(
      reason,
    );
    const controller = new AbortController();
    const guarded = Deadline.of({ signal: controller.signal }, invalid).guard(never);
    controller.abort(reason);
    await expect(guarded).rejects.toBe(reason);
  });

  it('hands the remaining time on to nested calls, never 0 (the client reads 0 as no timeout)', () => {
    const options = Deadline.of({ timeoutMs: 60_000 }, invalid).toOptions();
    expect(options.timeoutMs).toBeGreaterThan(0);
    expect(options.timeoutMs).toBeLessThanOrEqual(60_000);
    expect(Deadline.of({ timeoutMs: 0 }, invalid).toOptions().timeoutMs).toBe(1);
    expect(Deadline.of(undefined, invalid).toOptions()).toEqual({});
    expect(Deadline.NONE.toOptions()).toEqual({});
    expect(Deadline.NONE.bounded).toBe(false);
  });

  it('throws the abort reason instead of handing on an aborted signal', () => {
    const reason = new Error('stopped');
    expect(() => Deadline.of({ signal: AbortSignal.abort(reason) }, invalid).toOptions()).toThrow(reason);
  });
});
