/**
 * Repeating a call whose outcome was unknown (connection loss, timeout) once the client is connected again.
 * Callers make each call safe to repeat, or resolve the ambiguity on the retry (see item-processor.ts).
 */
import { sleep, throwIfAborted } from './abortable.js';
import type { QueueClient } from './zk-client.js';
import { isTransient } from './zk-errors.js';

/** How long a queue keeps retrying one call through connection problems. */
export interface RetryOptions {
  /** Attempts per call, the first included. Default 30. */
  maxAttempts?: number;
  /** Stops the retries (the queue's close, the consumer's signal). */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `fn`; on a transient error waits (a short backoff, then the client's `connected()`) and runs it again.
 * Other errors, and the last transient one, are thrown.
 */
export async function retryTransient<T>(
  client: QueueClient,
  fn: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 30;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(options.signal);
    try {
      return await fn();
    } catch (error) {
      if (!isTransient(error) || attempt >= maxAttempts) throw error;
      // The client may still report "connected" for a moment after the loss; back off before asking.
      await sleep(Math.min(1000, 25 * 2 ** Math.min(attempt, 6)), options.signal);
      await client.connected({ signal: options.signal });
    }
  }
}
