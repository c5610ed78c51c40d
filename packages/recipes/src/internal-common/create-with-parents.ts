/**
 * Curator's `creatingParentContainersIfNeeded()` (curator/conventions.md §1.3): try the create; on NoNode,
 * create each missing ancestor as a CONTAINER with empty data (NodeExists ignored), then try again. The
 * client does all of it (`createParents: 'container'`), and makes the ancestors again when they vanish before
 * the create (the server reaps an empty container), where Curator 5.4.0 fails or, in the background, loses
 * the create.
 */
import type { RecipeClient, RecipeCreateMode } from './zk-client.js';

/** Creates `path`, making container parents when the first attempt says a parent is missing. */
export function createWithContainerParents(
  client: Pick<RecipeClient, 'create'>,
  path: string,
  data: Uint8Array,
  mode: RecipeCreateMode,
): Promise<string> {
  return client.create(path, data, { mode, createParents: 'container' });
}
