/**
 * Small waiting primitives that honour an AbortSignal and leave no timer or listener behind.
 */
import { waitFor as waitForWake } from '@zkwire/common';
import { QueueError, QueueErrorCode } from './errors.js';

/** The error a wait rejects with when its signal fires (the signal's reason when it is an Error). */
export function abortError(signal: AbortSignal | undefined, what = 'wait'): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new QueueError(QueueErrorCode.ABORTED, `${what} aborted`, { cause: reason });
}

/** Throws at once when the signal has already fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted) throw abortError(signal, what);
}

/**
 * @zkwire/common's waitFor, rejecting with {@link abortError} when the signal fires: the signal's reason
 * when it is an Error, else a QueueError(ABORTED).
 */
export function waitFor(
  subscribe: (wake: () => void) => () => void,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  const { signal } = options;
  return waitForWake(subscribe, options).catch((error: unknown) => {
    throw signal?.aborted && error === signal.reason ? abortError(signal) : error;
  });
}

/** Combines signals: the result fires when any of them fires. */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 1) return present[0] as AbortSignal;
  return AbortSignal.any(present);
}
