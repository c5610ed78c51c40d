/**
 * How a chroot view's paths map to its parent's: checked first, so that a bad path never reaches another
 * node, then prefixed with the view's root; and, on the way back, which of the parent's answers lie under
 * the root.
 */
import { InvalidArgumentError } from '../util/errors.js';
import type { OpResult } from '../util/multi-types.js';
import { type Chroot, pathProblem, validatePath } from '../util/paths.js';
import type { CreateOptions } from '../util/types.js';

/** Checks a view's root: an absolute znode path; `/` is the parent's own root. */
export function viewRootArg(root: unknown): string {
  const problem = pathProblem(root);
  if (problem !== null) {
    throw new InvalidArgumentError('root', `${JSON.stringify(root)} ${problem}`, { operation: 'chroot' });
  }
  return root as string;
}

/** A view path as the parent's path; checked first, so that a bad path never reaches another node. */
export function toParentPath(root: Chroot, path: string, operation: string, sequential = false): string {
  validatePath(path, { operation, sequential });
  // A sequential node named by the server alone goes under the root, not beside it (`/t/a` + `0000000001`).
  if (sequential && path === '/' && root.prefix !== '') return `${root.prefix}/`;
  return root.toServer(path);
}

/** A multi's or multiRead's ops with the parent's paths (a malformed op is left for the parent to refuse). */
export function opsToParent<O extends { path: string }>(root: Chroot, ops: O[], operation: string): O[] {
  if (!Array.isArray(ops)) return ops;
  return ops.map((op) => {
    if (typeof op !== 'object' || op === null || typeof op.path !== 'string') return op;
    const sequential = (op as { mode?: unknown }).mode;
    return { ...op, path: toParentPath(root, op.path, operation, isSequential(sequential)) };
  });
}

/** The parent's getEphemerals prefix for a view's `prefix` (checked: a string starting with `/`). */
export function parentEphemeralsPrefix(root: Chroot, prefix: unknown): string {
  if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
    throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
      operation: 'getEphemerals',
    });
  }
  const rootPath = root.prefix;
  return rootPath === '' ? prefix : prefix === '/' ? rootPath : rootPath + prefix;
}

/**
 * The parent's ephemerals that lie under the view, as view paths: the root itself and the nodes below it,
 * not a sibling that merely starts with the root's name.
 */
export function ephemeralsInView(root: Chroot, found: string[]): string[] {
  const rootPath = root.prefix;
  const mine: string[] = [];
  for (const path of found) {
    if (rootPath === '' || path === rootPath || path.startsWith(`${rootPath}/`))
      mine.push(root.toClient(path));
  }
  return mine;
}

/** A multi's results with view paths (a created node's path loses the root). */
export function resultsInView(root: Chroot, results: OpResult[]): OpResult[] {
  return results.map((result) =>
    result.type === 'create' ? { ...result, path: root.toClient(result.path) } : result,
  );
}

function isSequential(mode: unknown): boolean {
  return (
    mode === 'persistent-sequential' ||
    mode === 'ephemeral-sequential' ||
    mode === 'persistent-sequential-ttl'
  );
}

/** Whether a create's options ask for a sequential node. */
export function sequentialMode(options: CreateOptions | undefined): boolean {
  return typeof options === 'object' && options !== null && isSequential(options.mode);
}
