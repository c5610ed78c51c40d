/** One wait for a wake-up that may never come: bounded by a timeout and an AbortSignal, leaving nothing behind. */

/**
 * Waits until `subscribe`'s callback fires (resolves true), `timeoutMs` elapses (resolves false), or `signal`
 * fires (rejects with its reason). `subscribe` returns its own unsubscribe function, called once the wait
 * ends whichever way; its callback may fire during `subscribe` itself.
 */
export function waitFor(
  subscribe: (wake: () => void) => () => void,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  const { timeoutMs, signal } = options;
  return new Promise<boolean>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    const finish = (settle: () => void) => {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe?.();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    let woken = false;
    unsubscribe = subscribe(() => {
      if (woken) return;
      woken = true;
      finish(() => resolve(true));
    });
    if (woken) {
      unsubscribe();
      return;
    }
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => finish(() => resolve(false)), Math.max(0, timeoutMs));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
