import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

describe('sleep', () => {
  it('resolves after its time', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    await expect(sleep(1, { unref: true })).resolves.toBeUndefined();
  });

  it('rejects with the signal reason, whether it fired before or during the sleep', async () => {
    const reason = new Error('stop');
    await expect(sleep(60_000, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const controller = new AbortController();
    const sleeping = sleep(60_000, { signal: controller.signal });
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });
});
