/**
 * Waiting on the one node that must go before us (curator/locks.md §2.3): `getData(predecessor, watch)`,
 * the watch armed by the same request as the read, so no deletion can slip between the two. `getData` rather
 * than `exists`, so no watch is left on a node that is already gone.
 */
import type { Deadline } from './deadline.js';
import { Wakeup } from './wakeup.js';
import type { RecipeClient } from './zk-client.js';
import { isNoNode } from './zk-errors.js';

/**
 * Resolves when the predecessor at `path` changed, was deleted or was already gone, or the connection changed
 * in a way that calls for a re-read. Rejects with DeadlineExpired or the abort reason.
 */
export async function waitForPredecessor(
  client: RecipeClient,
  path: string,
  deadline: Deadline,
): Promise<void> {
  const wakeup = new Wakeup(client);
  try {
    await deadline.guard(client.getData(path, { watch: wakeup.watcher }));
  } catch (error) {
    wakeup.dispose();
    if (isNoNode(error)) return;
    throw error;
  }
  await wakeup.wait(deadline);
}
