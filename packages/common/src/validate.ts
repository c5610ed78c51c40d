/**
 * Checks of the arguments every sibling package takes, done before anything is sent. Each throws the
 * calling package's own bad-argument error (an {@link InvalidArgument}), so a caller catches one family.
 */
import type { InvalidArgument } from './error-family.js';

/** A timeout: undefined (wait forever) or a finite number of milliseconds ≥ 0. */
export function checkTimeout(timeoutMs: unknown, invalid: InvalidArgument): number | undefined {
  if (timeoutMs === undefined) return undefined;
  return checkDuration(timeoutMs, 'timeoutMs', invalid);
}

/** A finite number of milliseconds ≥ 0. */
export function checkDuration(value: unknown, argument: string, invalid: InvalidArgument): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalid(argument, `must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}

/** An AbortSignal or undefined. */
export function checkSignal(signal: unknown, invalid: InvalidArgument): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  if (!(signal instanceof AbortSignal)) throw invalid('signal', 'must be an AbortSignal');
  return signal;
}

/** An integer ≥ 1 (a count, a threshold). */
export function checkPositiveInteger(value: unknown, argument: string, invalid: InvalidArgument): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalid(argument, `must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}
