/** Argument checks done before anything is sent; each failure is an {@link InvalidDiscoveryArgumentError}. */
import { InvalidDiscoveryArgumentError } from './errors.js';

const hasControlCharacter = (text: string): boolean =>
  [...text].some((ch) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f));

/**
 * One path segment: a service name or an instance id. It becomes a znode name, so it must be non-empty, hold
 * no `/`, not be `.` or `..`, and hold no control characters (ZooKeeper refuses those, or they would change
 * the path's meaning).
 */
export function validateSegment(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidDiscoveryArgumentError(what, 'must be a non-empty string');
  }
  if (value.includes('/')) throw new InvalidDiscoveryArgumentError(what, `must not contain "/": ${value}`);
  if (value === '.' || value === '..')
    throw new InvalidDiscoveryArgumentError(what, `must not be "${value}"`);
  if (value === 'zookeeper') {
    // Only reserved at the root, but a base path of "/" would make it one; refusing it everywhere is simpler.
    throw new InvalidDiscoveryArgumentError(what, 'must not be "zookeeper" (reserved by ZooKeeper)');
  }
  if (hasControlCharacter(value))
    throw new InvalidDiscoveryArgumentError(what, 'must not contain control characters');
  return value;
}

/** The base path: absolute, no empty segments, no trailing slash, no `.`/`..` segments, not `/`. */
export function validateBasePath(path: unknown): string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new InvalidDiscoveryArgumentError('basePath', 'must be a non-empty string');
  }
  if (!path.startsWith('/') || path === '/' || path.endsWith('/') || path.includes('//')) {
    throw new InvalidDiscoveryArgumentError(
      'basePath',
      `must be an absolute ZooKeeper path other than "/": ${path}`,
    );
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new InvalidDiscoveryArgumentError('basePath', `must not contain "." or ".." segments: ${path}`);
  }
  if (hasControlCharacter(path))
    throw new InvalidDiscoveryArgumentError('basePath', 'must not contain control characters');
  return path;
}

/** A TCP port (0 to 65535) or null. */
export function validatePort(value: unknown, what: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new InvalidDiscoveryArgumentError(
      what,
      `must be an integer from 0 to 65535 or null, got ${String(value)}`,
    );
  }
  return value;
}

/** A timeout: undefined (wait forever) or a finite number of milliseconds ≥ 0. */
export function validateTimeout(timeoutMs: unknown): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new InvalidDiscoveryArgumentError(
      'timeoutMs',
      `must be a finite number >= 0, got ${String(timeoutMs)}`,
    );
  }
  return timeoutMs;
}

/** An AbortSignal or undefined. */
export function validateSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  if (!(signal instanceof AbortSignal))
    throw new InvalidDiscoveryArgumentError('signal', 'must be an AbortSignal');
  return signal;
}

/** A positive integer (an error threshold, say). */
export function validatePositiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidDiscoveryArgumentError(what, `must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}

/** A finite number of milliseconds ≥ 0. */
export function validateDuration(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidDiscoveryArgumentError(what, `must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}
