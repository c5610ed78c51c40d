/**
 * Bounds a wait that is not a pipelined request (addAuth's answer) by the caller's `signal` and `timeoutMs`,
 * the same way requests are bounded: the wait ends, whatever it waited on goes on.
 */
import { OperationTimeoutError } from './errors.js';
import type { CallOptions } from './types.js';

/** Settles like `promise`, or rejects first on abort (the signal's reason) or timeout (OperationTimeoutError). */
export function boundedWait<T>(
  promise: Promise<T>,
  operation: string,
  options: CallOptions = {},
): Promise<T> {
  const { signal, timeoutMs } = options;
  if (signal === undefined && !timeoutMs) return promise;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => reject(signal!.reason);
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted) {
      reject(signal.reason);
      // The wrapped promise may still reject later: that is no longer anyone's business.
      promise.catch(() => {});
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs) timer = setTimeout(() => reject(new OperationTimeoutError({ operation })), timeoutMs);
    promise.then(resolve, reject).finally(cleanup);
  });
}
