/**
 * The `logger` option: where the client says what happens to its connections, retries and the errors it
 * cannot hand to anyone. Any object with `debug`/`info`/`warn`/`error` methods taking one string fits:
 * `console`, pino, winston, bunyan. Missing methods are skipped; the default is silent. Messages never hold
 * credentials (errors are built with them concealed; auth and SASL details are never logged).
 */
import { InvalidArgumentError } from './errors.js';
import type { Logger, LogLevel } from './types.js';

/** Checks the `logger` option: undefined, or an object whose present level members are functions. */
export function loggerArg(logger: unknown): Logger | undefined {
  if (logger === undefined) return undefined;
  const invalid = () =>
    new InvalidArgumentError('logger', 'must be an object with debug/info/warn/error methods');
  if (typeof logger !== 'object' || logger === null) throw invalid();
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    const method = (logger as Record<string, unknown>)[level];
    if (method !== undefined && typeof method !== 'function') throw invalid();
  }
  return logger as Logger;
}

/**
 * Logs through `logger` when it has the level; a throwing logger never breaks the client (its failure is
 * dropped: there is nowhere left to report it).
 */
export function log(logger: Logger | undefined, level: LogLevel, message: () => string): void {
  const method = logger?.[level];
  if (method === undefined) return;
  try {
    method.call(logger, message());
  } catch {
    // The application's logger failed; the client carries on.
  }
}

/** A short description of an error for a log line: its code and message (never its context objects). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
