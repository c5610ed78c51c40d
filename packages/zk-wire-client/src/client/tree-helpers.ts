/**
 * Helpers over several calls: create a path with its missing nodes, delete a subtree. Both tolerate other
 * clients working on the same nodes at the same time.
 */
import { InvalidArgumentError, isNodeExists, isNoNode, isNotEmpty } from '../util/errors.js';
import { join, validatePath } from '../util/paths.js';
import type { ACL, CallOptions, CreateOptions, Stat } from '../util/types.js';
import { optionsArg } from './core.js';

/** The calls the helpers use. */
export interface TreeClient {
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  create(path: string, data?: Uint8Array | null, options?: CreateOptions): Promise<string>;
  getChildren(path: string, options?: CallOptions): Promise<string[]>;
  delete(path: string, options?: CallOptions): Promise<void>;
}

const EMPTY = new Uint8Array(0);

/**
 * How many times `ensurePath` walks the path. A node it saw can vanish before its child is made: the server
 * reaps a container once its last child is gone, and other clients delete. Each such NoNode walks again from
 * the top; a path that keeps vanishing fails with that NoNode rather than looping.
 */
export const ENSURE_PATH_WALKS = 4;

/** Creates every missing node of `path` as persistent nodes or containers; nodes made meanwhile are fine. */
export async function ensurePath(
  client: TreeClient,
  path: string,
  mode: 'persistent' | 'container',
  options: (CallOptions & { acl?: ACL[] | undefined }) | undefined,
): Promise<void> {
  validatePath(path, { operation: 'ensurePath' });
  optionsArg(options, 'ensurePath', path);
  for (let walk = 1; ; walk++) {
    try {
      return await createMissingNodes(client, path, mode, options);
    } catch (error) {
      // NoNode: a node above the one being made vanished after it was seen.
      if (!isNoNode(error) || walk === ENSURE_PATH_WALKS) throw error;
    }
  }
}

async function createMissingNodes(
  client: TreeClient,
  path: string,
  mode: 'persistent' | 'container',
  options: (CallOptions & { acl?: ACL[] | undefined }) | undefined,
): Promise<void> {
  const callOptions = { signal: options?.signal, timeoutMs: options?.timeoutMs };
  let current = '';
  for (const segment of path.split('/').filter(Boolean)) {
    current = `${current}/${segment}`;
    if (await client.exists(current, callOptions)) continue;
    try {
      // Empty bytes, not null: Curator's mkdirs writes `new byte[0]`, which a Java reader sees as such.
      await client.create(current, EMPTY, { ...callOptions, mode, acl: options?.acl });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }
}

/** Deletes a node and its subtree, children first; nodes already gone are fine. */
export async function deleteRecursive(
  client: TreeClient,
  path: string,
  options?: CallOptions,
): Promise<void> {
  validatePath(path, { operation: 'deleteRecursive' });
  optionsArg(options, 'deleteRecursive', path);
  if (path === '/') {
    // Under a chroot "/" is the application's whole namespace, and without one the whole tree: refused
    // before anything is sent rather than wiped by a mistyped path.
    throw new InvalidArgumentError(
      'path',
      'deleteRecursive of "/" is refused (it would empty the whole tree)',
      {
        operation: 'deleteRecursive',
        path,
      },
    );
  }
  for (;;) {
    let children: string[];
    try {
      children = await client.getChildren(path, options);
    } catch (error) {
      if (isNoNode(error)) return;
      throw error;
    }
    for (const child of children) await deleteRecursive(client, join(path, child), options);
    try {
      await client.delete(path, options);
      return;
    } catch (error) {
      if (isNoNode(error)) return;
      // A child appeared meanwhile: list again.
      if (!isNotEmpty(error)) throw error;
    }
  }
}
