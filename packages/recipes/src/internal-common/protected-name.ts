/**
 * Curator's protected node names (curator/conventions.md §1.5): `_c_<uuid>-<name>`, the UUID a lower-case v4
 * UUID of 36 characters, so the prefix is 40 characters long.
 */
import { randomUUID } from 'node:crypto';

const PROTECTED_PREFIX = '_c_';
const PROTECTED_PREFIX_LENGTH = 40;
const UUID_PATTERN =
  /^[0-9a-fA-F]{1,8}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,12}$/;

/** A fresh protection prefix, `_c_<uuid>-`, as `withProtection()` makes one per builder. */
export function newProtectedPrefix(): string {
  return `${PROTECTED_PREFIX}${randomUUID()}-`;
}

/** Java's `ProtectedUtils.isProtectedZNode`: longer than 40, `_c_`, a `-` at 39 and a UUID in 3..38. */
export function isProtectedName(name: string): boolean {
  return (
    name.length > PROTECTED_PREFIX_LENGTH &&
    name.startsWith(PROTECTED_PREFIX) &&
    name[PROTECTED_PREFIX_LENGTH - 1] === '-' &&
    UUID_PATTERN.test(name.slice(3, PROTECTED_PREFIX_LENGTH - 1))
  );
}

/** The name without its protection prefix (`ProtectedUtils.normalize`); other names come back unchanged. */
export function normalizeProtectedName(name: string): string {
  return isProtectedName(name) ? name.slice(PROTECTED_PREFIX_LENGTH) : name;
}

/** The UUID of a protected name, or undefined. */
export function protectedIdOf(name: string): string | undefined {
  return isProtectedName(name) ? name.slice(3, PROTECTED_PREFIX_LENGTH - 1) : undefined;
}
