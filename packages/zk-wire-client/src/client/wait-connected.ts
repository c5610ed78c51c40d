/**
 * `client.connected()`: resolves once the session has a ready connection (r/w, or read-only when allowed),
 * rejects when the client is closed or the session expired, or on the caller's signal or timeout.
 *
 * A wait for the first connection (what `connect()` does) is bounded by the client's `connectWaitMs`
 * (default 15 s) when the call gives no `timeoutMs`: with no server answering it would otherwise never end.
 * Later waits (a reconnect) end with the session at the latest, and stay unbounded unless asked.
 *
 * Every new session waits here once, so a wait is an object with methods rather than a set of closures.
 */
import { OperationTimeoutError } from '../util/errors.js';
import type { CallOptions } from '../util/types.js';
import type { ClientSession } from './call-session.js';
import { optionsArg } from './core.js';

/** Waits until `session` is connected; bad `options` reject, like every call's. */
export function waitConnected(session: ClientSession, options: CallOptions = {}): Promise<void> {
  try {
    optionsArg(options, 'connected', undefined);
  } catch (error) {
    return Promise.reject(error);
  }
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const refusal = session.refusal();
  if (refusal) return Promise.reject(refusal);
  if (isConnected(session)) return Promise.resolve();
  const timeoutMs = options.timeoutMs ?? (session.hasConnected ? 0 : session.connectWaitMs);
  return new Promise((resolve, reject) => {
    new ConnectedWait(session, signal, timeoutMs, resolve, reject).start();
  });
}

function isConnected(session: ClientSession): boolean {
  return session.isReady && (session.state === 'connected' || session.state === 'read-only');
}

/** One pending wait: settles once, and then leaves no listener and no timer behind. */
class ConnectedWait {
  private timer: NodeJS.Timeout | undefined;
  private settled = false;
  private readonly onState: () => void;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly session: ClientSession,
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutMs: number,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.onState = this.stateChanged.bind(this);
    this.onAbort = signal === undefined ? undefined : this.aborted.bind(this);
  }

  start(): void {
    this.session.on('sessionState', this.onState);
    if (this.onAbort !== undefined) this.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (this.timeoutMs) this.timer = setTimeout(timedOut, this.timeoutMs, this);
  }

  private stateChanged(): void {
    // Checked as a microtask: the state changes just before the pipeline opens.
    queueMicrotask(() => this.check());
  }

  private check(): void {
    if (this.settled) return;
    const refusal = this.session.refusal();
    if (refusal) {
      this.cleanup();
      this.reject(refusal);
    } else if (isConnected(this.session)) {
      this.cleanup();
      this.resolve();
    }
  }

  private aborted(): void {
    this.cleanup();
    this.reject(this.signal!.reason);
  }

  /** The bound passed: the last connection error says why (refused, TLS, no answer) rather than "too slow". */
  timedOut(): void {
    this.cleanup();
    const session = this.session;
    this.reject(
      new OperationTimeoutError({
        operation: 'connected',
        detail: session.describeConnectionProblem(),
        cause: session.connectionProblem(),
      }),
    );
  }

  private cleanup(): void {
    this.settled = true;
    this.session.off('sessionState', this.onState);
    if (this.onAbort !== undefined) this.signal?.removeEventListener('abort', this.onAbort);
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** The timer's callback (an argument, not a closure per wait). */
function timedOut(wait: ConnectedWait): void {
  wait.timedOut();
}
