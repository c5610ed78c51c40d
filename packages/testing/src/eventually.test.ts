import { describe, expect, it, vi } from 'vitest';
import { EventuallyTimeoutError, eventually } from './eventually.js';

describe('eventually', () => {
  it('resolves once the check holds, checking again until it does', async () => {
    let calls = 0;
    await eventually(() => ++calls === 3, { intervalMs: 1 });
    expect(calls).toBe(3);
  });

  it('awaits an async check', async () => {
    let calls = 0;
    await eventually(async () => ++calls >= 2, { intervalMs: 1 });
    expect(calls).toBe(2);
  });

  it('checks once more at the end of its time, and names what never held', async () => {
    let calls = 0;
    const failure = await eventually(
      () => {
        calls++;
        return false;
      },
      { what: 'the node to go', timeoutMs: 0 },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventuallyTimeoutError);
    expect((failure as Error).message).toBe('eventually: the node to go did not hold within 0 ms (1 checks)');
    expect(calls).toBe(1);
  });

  it('takes a string as what it waits for, with the default 20 s', async () => {
    vi.useFakeTimers();
    try {
      const failure = eventually(() => false, 'the watch').catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(String(await failure)).toMatch(/the watch did not hold within 20000 ms/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends at once when the check throws', async () => {
    let calls = 0;
    const boom = new Error('boom');
    await expect(
      eventually(() => {
        calls++;
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('refuses bad arguments before checking', async () => {
    let calls = 0;
    const check = () => ++calls > 0;
    await expect(eventually(check, { timeoutMs: -1 })).rejects.toThrow(RangeError);
    await expect(eventually(check, { intervalMs: Number.NaN })).rejects.toThrow(RangeError);
    await expect(eventually(undefined as unknown as () => boolean)).rejects.toThrow(TypeError);
    expect(calls).toBe(0);
  });
});
