/**
 * Argument checks done before anything is sent (design.md "Bad input"): each failure is an
 * InvalidArgumentError naming the argument.
 */
import { Buffer } from 'node:buffer';
import { acls } from './acl.js';
import { InvalidArgumentError } from './errors.js';
import type { ACL, CreateMode, Data } from './types.js';

/** The default limit on data: the server's jute.maxbuffer (0xFFFFF) minus room for the request around it. */
export const DEFAULT_MAX_DATA_LENGTH = 0xfffff - 1024;

/** Largest TTL the server accepts (wire-protocol.md §4.4). */
const MAX_TTL = 0xff_ffff_ffffn;

const MODES: ReadonlySet<string> = new Set<CreateMode>([
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'persistent-ttl',
  'persistent-sequential-ttl',
]);

/** Data as bytes or null; strings are UTF-8. Refuses other types and data over the limit. */
export function dataBytes(
  data: Data,
  maxLength: number,
  operation: string,
  path?: string,
): Uint8Array | null {
  if (data === null || data === undefined) return null;
  let bytes: Uint8Array;
  if (typeof data === 'string') bytes = Buffer.from(data, 'utf8');
  else if (data instanceof Uint8Array) bytes = data;
  else throw new InvalidArgumentError('data', 'must be a Uint8Array, a string or null', { operation, path });
  if (bytes.length > maxLength) {
    throw new InvalidArgumentError('data', `${bytes.length} bytes exceed the limit of ${maxLength}`, {
      operation,
      path,
    });
  }
  return bytes;
}

/** A version: an int32 ≥ -1 (-1 = any); undefined means -1. */
export function versionArg(version: number | undefined, operation: string, path?: string): number {
  if (version === undefined) return -1;
  if (!Number.isInteger(version) || version < -1 || version > 0x7fffffff) {
    throw new InvalidArgumentError(
      'version',
      `must be an integer from -1 to 2147483647, got ${String(version)}`,
      {
        operation,
        path,
      },
    );
  }
  return version;
}

/** A create mode; undefined means 'persistent'. */
export function modeArg(mode: CreateMode | undefined, operation: string, path?: string): CreateMode {
  if (mode === undefined) return 'persistent';
  if (!MODES.has(mode))
    throw new InvalidArgumentError('mode', `unknown create mode ${JSON.stringify(mode)}`, {
      operation,
      path,
    });
  return mode;
}

/** The TTL of a create: required (1 ms to 0xFF_FFFF_FFFF ms) for TTL modes, refused for others. -1n = none. */
export function ttlArg(
  mode: CreateMode,
  ttlMs: number | bigint | undefined,
  operation: string,
  path?: string,
): bigint {
  const isTtl = mode.endsWith('-ttl');
  if (ttlMs === undefined) {
    if (isTtl) throw new InvalidArgumentError('ttlMs', `is required for mode ${mode}`, { operation, path });
    return -1n;
  }
  if (!isTtl)
    throw new InvalidArgumentError('ttlMs', `only applies to the TTL modes, not ${mode}`, {
      operation,
      path,
    });
  if (typeof ttlMs === 'number' && !Number.isInteger(ttlMs)) {
    throw new InvalidArgumentError('ttlMs', `must be an integer, got ${ttlMs}`, { operation, path });
  }
  const ttl = BigInt(ttlMs);
  if (ttl <= 0n || ttl > MAX_TTL) {
    throw new InvalidArgumentError('ttlMs', `must be from 1 to ${MAX_TTL}, got ${ttl}`, { operation, path });
  }
  return ttl;
}

/** An ACL list; undefined means open. Refuses an empty list or malformed entries (named `argument`). */
export function aclArg(acl: ACL[] | undefined, operation: string, path?: string, argument = 'acl'): ACL[] {
  if (acl === undefined) return acls.open();
  if (!Array.isArray(acl) || acl.length === 0) {
    throw new InvalidArgumentError(argument, 'must be a non-empty array', { operation, path });
  }
  for (const entry of acl) {
    const ok =
      entry !== null &&
      typeof entry === 'object' &&
      Number.isInteger(entry.perms) &&
      entry.perms >= 0 &&
      entry.perms <= 31 &&
      typeof entry.id?.scheme === 'string' &&
      typeof entry.id?.id === 'string';
    if (!ok)
      throw new InvalidArgumentError(argument, `malformed entry ${JSON.stringify(entry)}`, {
        operation,
        path,
      });
  }
  return acl;
}
