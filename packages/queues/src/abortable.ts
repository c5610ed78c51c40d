/**
 * Small waiting primitives that honour an AbortSignal and leave no timer or listener behind.
 */
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
 * Waits until `subscribe`'s callback fires (resolves true), `timeoutMs` elapses (resolves false), or `signal`
 * fires (rejects). `subscribe` returns its own unsubscribe function.
 */
export function waitFor(
  subscribe: (wake: () => void) => () => void,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  const { timeoutMs, signal } = options;
  return new Promise<boolean>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: (() => void) | undefined;
    const finish = (settle: () => void) => {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe?.();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(abortError(signal)));
    let woken = false;
    unsubscribe = subscribe(() => {
      if (woken) return;
      woken = true;
      finish(() => resolve(true));
    });
    if (woken) return;
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => finish(() => resolve(false)), Math.max(0, timeoutMs));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Combines signals: the result fires when any of them fires. */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 1) return present[0] as AbortSignal;
  return AbortSignal.any(present);
}
