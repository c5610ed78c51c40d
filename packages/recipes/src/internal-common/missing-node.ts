/**
 * Calls for which a missing node is an answer, not an error: a recipe's parent node may not exist yet (no
 * contender ever came) or may have been removed (a container node reaped, a barrier lowered by someone else).
 */
import type { RecipeClient } from './zk-client.js';
import { isNoNode } from './zk-errors.js';

/** The children of `path`, unsorted; `[]` when the node does not exist. */
export async function childrenOrNone(client: RecipeClient, path: string): Promise<string[]> {
  try {
    return await client.getChildren(path);
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
}

/** Deletes `path` (any version); a node already gone counts as deleted. */
export async function deleteIfPresent(client: RecipeClient, path: string): Promise<void> {
  try {
    await client.delete(path);
  } catch (error) {
    if (!isNoNode(error)) throw error;
  }
}
