/**
 * Curator's `creatingParentContainersIfNeeded()` (curator-compat.md §1.3): try the create; on NoNode, create
 * each missing ancestor as a CONTAINER with empty data (NodeExists ignored), then try again.
 */
import type { RecipeClient, RecipeCreateMode } from './zk-client.js';
import { isNodeExists, isNoNode } from './zk-errors.js';

/** Every proper ancestor of `path`, shallowest first, without the root. */
export function ancestorsOf(path: string): string[] {
  const segments = path.split('/').filter((segment) => segment.length > 0);
  const result: string[] = [];
  for (let i = 1; i < segments.length; i++) result.push(`/${segments.slice(0, i).join('/')}`);
  return result;
}

/** Creates every ancestor of `path` that is missing, as containers. */
export async function ensureContainerParents(client: RecipeClient, path: string): Promise<void> {
  for (const ancestor of ancestorsOf(path)) {
    try {
      await client.create(ancestor, new Uint8Array(0), { mode: 'container' });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }
}

/** Creates `path`, making container parents when the first attempt says a parent is missing. */
export async function createWithContainerParents(
  client: RecipeClient,
  path: string,
  data: Uint8Array,
  mode: RecipeCreateMode,
): Promise<string> {
  try {
    return await client.create(path, data, { mode });
  } catch (error) {
    if (!isNoNode(error)) throw error;
  }
  await ensureContainerParents(client, path);
  return client.create(path, data, { mode });
}
