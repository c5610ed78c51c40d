import { ExponentialBackoffRetry } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.js';

describe('backoffMs', () => {
  const bounds = { baseMs: 50, maxMs: 2_000 };

  it('is the client curve: base times max(1, random in [0, 2^(attempt+1)))', () => {
    expect(backoffMs(0, bounds, () => 0)).toBe(50);
    expect(backoffMs(0, bounds, () => 0.99)).toBe(50);
    expect(backoffMs(2, bounds, () => 0.5)).toBe(200);
    for (let attempt = 0; attempt < 6; attempt++) {
      const random = () => 0.7;
      const client = new ExponentialBackoffRetry(50, 29, 2_000, random).allowRetry(attempt, 0);
      expect(backoffMs(attempt, bounds, random)).toBe(client);
    }
  });

  it('stays within its bounds at any attempt, negative and huge ones included', () => {
    expect(backoffMs(10, bounds, () => 0.99)).toBe(2_000);
    expect(backoffMs(1_000, bounds, () => 0.99)).toBe(2_000);
    expect(backoffMs(-3, bounds, () => 0)).toBe(50);
  });
});
