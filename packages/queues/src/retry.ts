/**
 * Repeating a call whose outcome was unknown (connection loss, timeout) once the client is connected again.
 * Callers make each call safe to repeat, or resolve the ambiguity on the retry (see item-processor.ts).
 */
import { backoffMs, sleep } from '@zkwire/common';
import { throwIfAborted } from './abortable.js';
import type { QueueClient } from './zk-client.js';
import { isTransient } from './zk-errors.js';

/** How long a queue keeps retrying one call through connection problems. */
export interface RetryOptions {
  /** Attempts per call, the first included. Default 30. */
  maxAttempts?: number;
  /** Stops the retries (the queue's close, the consumer's signal). */
  signal?: AbortSignal | undefined;
}

/** The backoff between attempts: short, since each also waits for the client's `connected()`. */
const TRANSIENT_BACKOFF = { baseMs: 25, maxMs: 1_000 };

/**
 * The wait after failed attempt number `attempt` (1 for the first): a short backoff, then the client's
 * `connected()`. The client may still report "connected" for a moment after the loss, hence the backoff.
 */
export async function waitOutTransient(
  client: QueueClient,
  attempt: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  await sleep(backoffMs(attempt - 1, TRANSIENT_BACKOFF), { signal });
  await client.connected({ signal });
}

/**
 * Runs `fn`; on a transient error waits (see {@link waitOutTransient}) and runs it again. Other errors, and
 * the last transient one, are thrown.
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
      await waitOutTransient(client, attempt, options.signal);
    }
  }
}
