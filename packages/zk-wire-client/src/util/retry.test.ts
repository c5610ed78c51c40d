import { describe, expect, it } from 'vitest';
import { ConnectionLossError, NoNodeError, SessionExpiredError } from './errors.js';
import {
  BoundedExponentialBackoffRetry,
  ExponentialBackoffRetry,
  RetryForever,
  RetryNTimes,
  RetryOneTime,
  RetryUntilElapsed,
  retry,
} from './retry.js';

describe('retry policies (Curator formulas)', () => {
  it('exponential backoff: base × max(1, U[0, 2^(k+1))), capped, at most 29 retries', () => {
    const low = new ExponentialBackoffRetry(100, 50, 10_000, () => 0);
    const high = new ExponentialBackoffRetry(100, 50, 10_000, () => 0.999);
    expect(low.allowRetry(0, 0)).toBe(100);
    expect(high.allowRetry(0, 0)).toBe(100);
    expect(high.allowRetry(2, 0)).toBe(700);
    expect(high.allowRetry(10, 0)).toBe(10_000);
    expect(high.allowRetry(28, 0)).not.toBe(false);
    expect(high.allowRetry(29, 0)).toBe(false);
    expect(new BoundedExponentialBackoffRetry(100, 300, 3, () => 0.999).allowRetry(2, 0)).toBe(300);
  });

  it('fixed policies', () => {
    expect(new RetryNTimes(2, 50).allowRetry(1, 0)).toBe(50);
    expect(new RetryNTimes(2, 50).allowRetry(2, 0)).toBe(false);
    expect(new RetryOneTime(10).allowRetry(1, 0)).toBe(false);
    expect(new RetryUntilElapsed(1000, 5).allowRetry(99, 999)).toBe(5);
    expect(new RetryUntilElapsed(1000, 5).allowRetry(0, 1000)).toBe(false);
    expect(new RetryForever(7).allowRetry()).toBe(7);
    expect(() => new RetryForever(0)).toThrow(RangeError);
  });
});

describe('retry loop', () => {
  it('retries connection losses until success, and stops on other errors', async () => {
    let calls = 0;
    const value = await retry(async () => {
      if (++calls < 3) throw new ConnectionLossError();
      return 'ok';
    }, new RetryNTimes(5, 1));
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retry(async () => {
        calls++;
        throw new NoNodeError();
      }, new RetryNTimes(5, 1)),
    ).rejects.toBeInstanceOf(NoNodeError);
    expect(calls).toBe(1);
  });

  it('gives up when the policy says so, and retries SessionExpired unless told not to', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new SessionExpiredError();
    };
    await expect(
      retry(failing, new RetryNTimes(3, 1), { retrySessionExpired: false }),
    ).rejects.toBeInstanceOf(SessionExpiredError);
    expect(calls).toBe(1);
    await expect(retry(failing, new RetryNTimes(3, 1))).rejects.toBeInstanceOf(SessionExpiredError);
    expect(calls).toBe(5);
  });

  it('stops sleeping when aborted', async () => {
    const controller = new AbortController();
    const loop = retry(
      async () => {
        throw new ConnectionLossError();
      },
      new RetryForever(60_000),
      { signal: controller.signal },
    );
    controller.abort(new Error('stop'));
    await expect(loop).rejects.toThrow('stop');
  });
});
