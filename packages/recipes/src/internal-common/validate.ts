/** Argument checks done before anything is sent. */
import { InvalidRecipeArgumentError } from './recipe-errors.js';

/** A ZooKeeper path usable as a recipe root: absolute, no empty segments, no trailing slash, not `/`. */
export function validateRecipePath(path: unknown, what = 'path'): string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new InvalidRecipeArgumentError(`${what} must be a non-empty string`);
  }
  if (!path.startsWith('/') || path === '/' || path.endsWith('/') || path.includes('//')) {
    throw new InvalidRecipeArgumentError(
      `${what} must be an absolute ZooKeeper path other than "/": ${path}`,
    );
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new InvalidRecipeArgumentError(`${what} must not contain "." or ".." segments: ${path}`);
  }
  if ([...path].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
    throw new InvalidRecipeArgumentError(`${what} must not contain control characters`);
  }
  return path;
}

/** A timeout: undefined (wait forever) or a finite number of milliseconds ≥ 0. */
export function validateTimeout(timeoutMs: unknown): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new InvalidRecipeArgumentError(`timeoutMs must be a finite number >= 0, got ${String(timeoutMs)}`);
  }
  return timeoutMs;
}

/** A positive integer count (leases, quantity). */
export function validatePositiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidRecipeArgumentError(`${what} must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}

/** An AbortSignal or undefined. */
export function validateSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  if (!(signal instanceof AbortSignal)) throw new InvalidRecipeArgumentError('signal must be an AbortSignal');
  return signal;
}
