/**
 * `client.connected()`: resolves once the session has a ready connection (r/w, or read-only when allowed),
 * rejects when the client is closed or the session expired, or on the caller's signal or timeout.
 *
 * A wait for the first connection (what `connect()` does) is bounded by the client's `connectWaitMs`
 * (default 15 s) when the call gives no `timeoutMs`: with no server answering it would otherwise never end.
 * Later waits (a reconnect) end with the session at the latest, and stay unbounded unless asked.
 */
import { OperationTimeoutError } from './errors.js';
import type { Session } from './session.js';
import type { CallOptions } from './types.js';

/** Waits until `session` is connected. */
export function waitConnected(session: Session, options: CallOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const cleanup = () => {
      session.off('sessionState', onState);
      options.signal?.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
    };
    const check = (): boolean => {
      const refusal = session.refusal();
      if (refusal) {
        cleanup();
        reject(refusal);
        return true;
      }
      if (session.isReady && (session.state === 'connected' || session.state === 'read-only')) {
        cleanup();
        resolve();
        return true;
      }
      return false;
    };
    // Checked as a microtask: the state changes just before the pipeline opens.
    const onState = () => queueMicrotask(check);
    const onAbort = () => {
      cleanup();
      reject(options.signal!.reason);
    };
    if (options.signal?.aborted) return reject(options.signal.reason);
    if (check()) return;
    session.on('sessionState', onState);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = options.timeoutMs ?? (session.hasConnected ? 0 : session.connectWaitMs);
    if (timeoutMs) {
      timer = setTimeout(() => {
        cleanup();
        // The last connection error says why (refused, TLS, no answer) rather than just "too slow".
        reject(new OperationTimeoutError({ operation: 'connected', cause: session.connectionProblem() }));
      }, timeoutMs);
    }
  });
}
