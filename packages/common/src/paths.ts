/**
 * Znode path validation with the client's rules, which are Java's `PathUtils.validatePath`: absolute, no
 * empty segment, no trailing `/`, no `.` or `..` segment, no null character and none of the characters
 * ZooKeeper refuses (C0 and C1 controls, DEL, surrogates and the private use area, U+FFF0 to U+FFFF).
 */
import type { InvalidArgument } from './error-family.js';

/** Why `path` is not a valid znode path, or null when it is one. */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'must be a string';
  if (path.length === 0) return 'must not be empty';
  if (path.charCodeAt(0) !== 0x2f) return 'must start with "/"';
  if (path.length === 1) return null;
  if (path.charCodeAt(path.length - 1) === 0x2f) return 'must not end with "/"';
  let segmentStart = 1;
  for (let i = 1; i <= path.length; i++) {
    const c = i < path.length ? path.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      const segment = path.slice(segmentStart, i);
      if (segment.length === 0) return `must not have an empty segment (index ${i})`;
      if (segment === '.' || segment === '..') return `must not have a "${segment}" segment`;
      segmentStart = i + 1;
    } else if (isRefusedCharacter(c)) {
      return `must not hold ${characterName(c)} (index ${i})`;
    }
  }
  return null;
}

/** A character ZooKeeper refuses in a path (Java's PathUtils). */
function isRefusedCharacter(c: number): boolean {
  return (
    c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || (c >= 0xfff0 && c <= 0xffff)
  );
}

/**
 * Checks a znode path argument and returns it; `/` is refused unless `allowRoot` (a recipe or service root
 * must be a node of its own).
 */
export function checkZnodePath(
  path: unknown,
  argument: string,
  invalid: InvalidArgument,
  options: { allowRoot?: boolean } = {},
): string {
  const problem = pathProblem(path);
  if (problem !== null) throw invalid(argument, `${problem}, got ${describe(path)}`);
  if (path === '/' && options.allowRoot !== true) throw invalid(argument, 'must be a path other than "/"');
  return path as string;
}

/**
 * Checks one node name (a service name, an instance id, a member id): what `/<name>` must be as a path, so
 * non-empty, no `/`, not `.` or `..`, no refused character.
 */
export function checkNodeName(name: unknown, argument: string, invalid: InvalidArgument): string {
  if (typeof name !== 'string' || name.length === 0) throw invalid(argument, 'must be a non-empty string');
  if (name.includes('/'))
    throw invalid(argument, `must be one node name, got ${describe(name)} (contains "/")`);
  if (name === '.' || name === '..') throw invalid(argument, `must not be "${name}"`);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (isRefusedCharacter(c))
      throw invalid(argument, `must not hold ${characterName(c)}, got ${describe(name)}`);
  }
  return name;
}

function characterName(c: number): string {
  return `the character U+${c.toString(16).padStart(4, '0').toUpperCase()}`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
