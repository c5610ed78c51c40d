import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('resolves true when woken, and unsubscribes', async () => {
    let wake: (() => void) | undefined;
    let unsubscribed = false;
    const waiting = waitFor((w) => {
      wake = w;
      return () => {
        unsubscribed = true;
      };
    });
    wake?.();
    await expect(waiting).resolves.toBe(true);
    expect(unsubscribed).toBe(true);
  });

  it('resolves true at once when woken during subscribe', async () => {
    await expect(
      waitFor((w) => {
        w();
        return () => {};
      }),
    ).resolves.toBe(true);
  });

  it('resolves false at its timeout', async () => {
    await expect(waitFor(() => () => {}, { timeoutMs: 5 })).resolves.toBe(false);
  });

  it("rejects with the signal's reason, at once when already aborted", async () => {
    const controller = new AbortController();
    const waiting = waitFor(() => () => {}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(waitFor(() => () => {}, { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('unsubscribes when woken during subscribe', async () => {
    let unsubscribed = false;
    await expect(
      waitFor((wake) => {
        wake();
        return () => {
          unsubscribed = true;
        };
      }),
    ).resolves.toBe(true);
    expect(unsubscribed).toBe(true);
  });
});
