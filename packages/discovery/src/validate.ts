/** Argument checks done before anything is sent; each failure is an {@link InvalidDiscoveryArgumentError}. */
import { checkDuration, checkNodeName, checkPositiveInteger, checkZnodePath } from '@zkwire/common';
import { InvalidDiscoveryArgumentError, invalidDiscoveryArgument } from './errors.js';

/**
 * One path segment: a service name or an instance id. It becomes a znode name (see @zkwire/common's
 * checkNodeName), and is not `zookeeper`.
 */
export function validateSegment(value: unknown, what: string): string {
  const name = checkNodeName(value, what, invalidDiscoveryArgument);
  if (name === 'zookeeper') {
    // Only reserved at the root, but a base path of "/" would make it one; refusing it everywhere is simpler.
    throw new InvalidDiscoveryArgumentError(what, 'must not be "zookeeper" (reserved by ZooKeeper)');
  }
  return name;
}

/** The base path: a valid znode path other than `/`. */
export function validateBasePath(path: unknown): string {
  return checkZnodePath(path, 'basePath', invalidDiscoveryArgument);
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

/** A positive integer (an error threshold, say). */
export function validatePositiveInteger(value: unknown, what: string): number {
  return checkPositiveInteger(value, what, invalidDiscoveryArgument);
}

/** A finite number of milliseconds ≥ 0. */
export function validateDuration(value: unknown, what: string): number {
  return checkDuration(value, what, invalidDiscoveryArgument);
}
