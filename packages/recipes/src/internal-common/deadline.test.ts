import { describe, expect, it } from 'vitest';
import { Deadline, DeadlineExpired } from './deadline.js';
import { InvalidRecipeArgumentError } from './recipe-errors.js';

describe('Deadline', () => {
  it('refuses bad options with a typed error', () => {
    expect(() => Deadline.of({ timeoutMs: -1 })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ timeoutMs: Number.NaN })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ timeoutMs: '5' as unknown as number })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ signal: {} as AbortSignal })).toThrow(InvalidRecipeArgumentError);
  });

  it('passes a settled value through', async () => {
    await expect(Deadline.of({ timeoutMs: 10_000 }).guard(Promise.resolve(7))).resolves.toBe(7);
    await expect(Deadline.of(undefined).guard(Promise.reject(new Error('x')))).rejects.toThrow('x');
  });

  it('gives up with DeadlineExpired when the time is up', async () => {
    const never = new Promise<never>(() => {});
    await expect(Deadline.of({ timeoutMs: 0 }).guard(never)).rejects.toBeInstanceOf(DeadlineExpired);
    await expect(Deadline.of({ timeoutMs: 5 }).guard(never)).rejects.toBeInstanceOf(DeadlineExpired);
  });

  it('rejects with the abort reason, before or during the wait', async () => {
    const never = new Promise<never>(() => {});
    const reason = new Error('stop');
    await expect(Deadline.of({ signal: AbortSignal.abort(reason) }).guard(never)).rejects.toBe(reason);
    const controller = new AbortController();
    const guarded = Deadline.of({ signal: controller.signal }).guard(never);
    controller.abort(reason);
    await expect(guarded).rejects.toBe(reason);
  });

  it('hands the remaining time on to nested calls', () => {
    const options = Deadline.of({ timeoutMs: 60_000 }).toOptions();
    expect(options.timeoutMs).toBeGreaterThan(0);
    expect(options.timeoutMs).toBeLessThanOrEqual(60_000);
    expect(Deadline.of(undefined).toOptions()).toEqual({});
  });
});
