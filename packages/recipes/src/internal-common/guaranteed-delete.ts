/**
 * Curator's `delete().guaranteed()` (curator-compat.md §1.4): a delete of our own node that, when the
 * connection fails under it, keeps being retried in the background until it works, the node is gone, the
 * session has expired (ephemeral nodes go with it) or the client is closed.
 */
import { sleep } from './deadline.js';
import type { RecipeClient } from './zk-client.js';
import { isClientClosed, isNoNode, isRetryable, isSessionExpired } from './zk-errors.js';

const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 2_000;

function isFinished(error: unknown): boolean {
  return isNoNode(error) || isSessionExpired(error) || isClientClosed(error);
}

function clientIsDone(client: RecipeClient): boolean {
  return client.state === 'closed' || client.state === 'expired';
}

/** One delete attempt of the background retry: a node already gone counts as deleted. */
async function deleteUnlessGone(client: RecipeClient, path: string): Promise<void> {
  try {
    await client.delete(path);
  } catch (error) {
    if (!isNoNode(error)) throw error;
  }
}

/** Retries `attempt` in the background while its failures are connection problems. */
export function retryInBackground(client: RecipeClient, attempt: () => Promise<void>): void {
  void (async () => {
    let delay = FIRST_RETRY_DELAY_MS;
    for (;;) {
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      if (clientIsDone(client)) return;
      try {
        await client.connected();
        await attempt();
        return;
      } catch (error) {
        if (isFinished(error) || !isRetryable(error)) return;
      }
    }
  })();
}

/**
 * Deletes `path` (any version). Resolves once it is deleted, already gone, or handed to the background
 * retry after a connection problem; rejects only on other errors (for example NOAUTH).
 */
export async function deleteGuaranteed(client: RecipeClient, path: string): Promise<void> {
  try {
    await client.delete(path);
  } catch (error) {
    if (isFinished(error)) return;
    if (!isRetryable(error)) throw error;
    retryInBackground(client, () => deleteUnlessGone(client, path));
  }
}

/**
 * Deletes the node of a waiter that gives up (timeout, abort, error) without making it wait for a
 * connection: while connected it is {@link deleteGuaranteed}; while disconnected the delete goes straight to
 * the background retry, since a call made then would wait for the next connection and hold the caller's
 * timeout hostage. Never rejects.
 */
export async function deleteOnGiveUp(client: RecipeClient, path: string): Promise<void> {
  if (client.state === 'connected' || client.state === 'read-only') {
    await deleteGuaranteed(client, path).catch(() => {});
    return;
  }
  if (clientIsDone(client)) return; // closed, or expired: the ephemeral node went with the session
  retryInBackground(client, () => deleteUnlessGone(client, path));
}

/**
 * Curator's `FindAndDeleteProtectedNodeInBackground`: after a create whose outcome is unknown, list the
 * parent until that works and delete any child carrying our protection prefix.
 */
export function findAndDeleteProtectedInBackground(
  client: RecipeClient,
  parentPath: string,
  prefix: string,
): void {
  retryInBackground(client, async () => {
    let children: string[];
    try {
      children = await client.getChildren(parentPath);
    } catch (error) {
      if (isNoNode(error)) return;
      throw error;
    }
    for (const child of children) {
      if (child.startsWith(prefix)) await deleteGuaranteed(client, `${parentPath}/${child}`);
    }
  });
}
