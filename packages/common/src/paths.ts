/**
 * Znode path checks for the sibling packages. The rules are the client's (Java's `PathUtils.validatePath`),
 * read through its public `paths.problem`, so that a path a recipe accepts is one the client sends and the
 * two cannot drift: absolute, no empty segment, no trailing `/`, no `.` or `..` segment, none of the
 * characters ZooKeeper refuses.
 */
import { paths } from '@zkwire/zk-wire-client';
import type { InvalidArgument } from './error-family.js';

/**
 * Why `path` is not a valid znode path (the client's words), or null when it is one. A `sequential` create's
 * path may end with `/`: the server appends the counter.
 */
export function pathProblem(path: unknown, sequential = false): string | null {
  return paths.problem(path, { sequential });
}

/**
 * Checks a znode path argument and returns it; `/` is refused unless `allowRoot` (a recipe or service root
 * must be a node of its own), and `sequential` checks it as a sequential create's path.
 */
export function checkZnodePath(
  path: unknown,
  argument: string,
  invalid: InvalidArgument,
  options: { allowRoot?: boolean; sequential?: boolean } = {},
): string {
  const problem = pathProblem(path, options.sequential === true);
  if (problem !== null) throw invalid(argument, `${problem}, got ${describe(path)}`);
  if (path === '/' && options.allowRoot !== true) throw invalid(argument, 'must be a path other than "/"');
  return path as string;
}

/**
 * Checks one node name (a service name, an instance id, a member id): non-empty, no `/`, not `.` or `..`,
 * and valid as the path `/<name>`, which is what a node name must be.
 */
export function checkNodeName(name: unknown, argument: string, invalid: InvalidArgument): string {
  if (typeof name !== 'string' || name.length === 0) throw invalid(argument, 'must be a non-empty string');
  if (name.includes('/'))
    throw invalid(argument, `must be one node name, got ${describe(name)} (contains "/")`);
  if (name === '.' || name === '..') throw invalid(argument, `must not be "${name}"`);
  const asPath = `/${name}`;
  const problem = pathProblem(asPath);
  if (problem !== null) {
    throw invalid(
      argument,
      `must be a valid node name, got ${describe(name)} (as the path ${describe(asPath)}, ${problem})`,
    );
  }
  return name;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
