/** One abortable sleep for every wait between retries. */

/** Options of {@link sleep}. */
export interface SleepOptions {
  /** Ends the sleep early: it rejects with the signal's reason, and its timer is cleared. */
  signal?: AbortSignal | undefined;
  /** Lets the process exit during the sleep (background loops that nobody awaits). */
  unref?: boolean;
}

/** Resolves after `ms`; rejects with the signal's reason when `signal` fires first (or has fired). */
export function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (options.unref === true) timer.unref();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
