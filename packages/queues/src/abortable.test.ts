import { describe, expect, it } from 'vitest';
import { abortError, throwIfAborted, waitFor } from './abortable.js';
import { QueueError } from './errors.js';

describe('the queues waits', () => {
  it("reject with the signal's reason when it is an Error", async () => {
    const reason = new Error('stop');
    await expect(waitFor(() => () => {}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('reject with a QueueError(ABORTED) for a reason that is not an Error, before or during the wait', async () => {
    const controller = new AbortController();
    const waiting = waitFor(() => () => {}, { signal: controller.signal });
    controller.abort('plain reason');
    const during = await waiting.catch((error: unknown) => error);
    expect(QueueError.isInstance(during) && during.code).toBe('ABORTED');
    const before = await waitFor(() => () => {}, { signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    expect(QueueError.isInstance(before) && before.code).toBe('ABORTED');
  });

  it('gives a QueueError(ABORTED) for a reason that is not an Error', () => {
    const controller = new AbortController();
    controller.abort('plain reason');
    const error = abortError(controller.signal, 'take');
    expect(QueueError.isInstance(error)).toBe(true);
    expect((error as QueueError).code).toBe('ABORTED');
    expect(() => throwIfAborted(controller.signal)).toThrow(/aborted/);
  });
});
