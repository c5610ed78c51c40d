/**
 * Errors that reach no caller: a listener of the application that throws, and background work that fails
 * (recipes, queues, discovery and the packages on them: each names itself in its log lines).
 *
 * A throwing listener is the application's bug, not the library's: each listener runs on its own, and one
 * that throws (or returns a promise that rejects) is reported while the other listeners and the object
 * carry on. A report goes to the object's `'error'` listeners when it has some (each on its own; one that
 * throws is reported as below, never as another `'error'`, so nothing loops), else to the client's logger
 * (`warn`), else to a process warning with a stable code, once per cause (the error's code or name, the
 * source and what failed), so a failure met again on every retry is one warning, not a flood.
 */
import type { EventEmitter } from 'node:events';

/** The codes of the process warnings (stable: applications filter on them). */
export const WarningCode = {
  /** A listener (or callback) of the application threw or rejected. */
  LISTENER_ERROR: 'ZKWIRE_LISTENER_ERROR',
  /** Background work failed in a way retrying will not fix, and nobody listens for `'error'`. */
  BACKGROUND_ERROR: 'ZKWIRE_BACKGROUND_ERROR',
} as const;

/** The logger shape the client's `logger` option takes (console, pino, winston fit). */
export interface WarnLogger {
  warn?(message: string): void;
}

/** Causes already warned about; the oldest are forgotten past this many, so the set stays small. */
const MAX_REMEMBERED_CAUSES = 1_000;
const warnedCauses = new Set<string>();

type Listener = (...args: unknown[]) => unknown;

/** Reports the errors of one object (recipe, queue, cache); `emit` calls its listeners safely. */
export class Reporter<Events extends Record<keyof Events, unknown[]>> {
  /**
   * @param emitter the object (its `'error'` listeners hear reports first), or undefined when it has none
   * @param client holds the client's `logger` option, read at each report
   * @param source names the object in messages, e.g. `LeaderLatch /election`
   * @param logPrefix how the package's log lines begin, e.g. `zookeeper recipes`
   */
  constructor(
    private readonly emitter: EventEmitter<Events> | EventEmitter | undefined,
    private readonly client: { readonly logger?: WarnLogger | undefined } | undefined,
    readonly source: string,
    private readonly logPrefix: string,
  ) {}

  /** Calls every listener of `event` on its own: one that throws is reported and stops nothing else. */
  emit<K extends keyof Events & string>(event: K, ...args: Events[K]): void {
    const emitter = this.emitter as unknown as EventEmitter | undefined;
    if (emitter === undefined) return;
    for (const listener of emitter.rawListeners(event) as Listener[]) {
      this.call(`'${event}' listener`, () => listener.apply(emitter, args));
    }
  }

  /** Runs a callback of the application; a throw or a rejected promise is reported as a listener error. */
  call(what: string, callback: () => unknown): void {
    try {
      const result = callback();
      if (isThenable(result)) result.then(undefined, (error: unknown) => this.listenerThrew(what, error));
    } catch (error) {
      this.listenerThrew(what, error);
    }
  }

  /**
   * Background work failed in a way retrying will not fix: `'error'`, else the logger, else a warning
   * (`code`: a package's own documented code, when it has one for this failure).
   */
  background(error: unknown, what: string, code: string = WarningCode.BACKGROUND_ERROR): void {
    this.#deliver(error, code, what, true);
  }

  /** A callback of the application (`what`: `'change' listener`, `onError hook`) threw: reported as above. */
  listenerThrew(what: string, error: unknown): void {
    this.#deliver(error, WarningCode.LISTENER_ERROR, `${what} threw`, true);
  }

  #deliver(error: unknown, code: string, what: string, toErrorListeners: boolean): void {
    const emitter = this.emitter as unknown as EventEmitter | undefined;
    if (toErrorListeners && emitter !== undefined && emitter.listenerCount('error') > 0) {
      for (const listener of emitter.rawListeners('error') as Listener[]) {
        try {
          const result = listener.call(emitter, error);
          if (isThenable(result))
            result.then(undefined, (thrown: unknown) => this.#errorListenerThrew(thrown));
        } catch (thrown) {
          this.#errorListenerThrew(thrown);
        }
      }
      return;
    }
    const message = `${this.source}: ${what}: ${describe(error)}`;
    const logger = this.client?.logger;
    if (typeof logger?.warn === 'function') {
      try {
        logger.warn(`${this.logPrefix}: ${message}`);
        return;
      } catch {
        // The application's logger failed too: the warning below still says it.
      }
    }
    warnOnce(`${code}|${this.source}|${what}|${causeOf(error)}`, message, code);
  }

  #errorListenerThrew(error: unknown): void {
    this.#deliver(error, WarningCode.LISTENER_ERROR, "'error' listener threw", false);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `CODE: message` for an error with a string code, else its message. */
function describe(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `${code}: ${detail}` : detail;
}

/** What tells two failures apart: the error's code, else its name. */
function causeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : typeof error;
}

function warnOnce(cause: string, message: string, code: string): void {
  if (warnedCauses.has(cause)) return;
  if (warnedCauses.size >= MAX_REMEMBERED_CAUSES) {
    const oldest = warnedCauses.values().next().value;
    if (oldest !== undefined) warnedCauses.delete(oldest);
  }
  warnedCauses.add(cause);
  process.emitWarning(message, { code });
}
