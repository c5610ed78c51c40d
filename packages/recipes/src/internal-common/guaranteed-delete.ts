/**
 * Curator's `delete().guaranteed()` (curator/conventions.md §1.4) for a recipe's own node, on the client's
 * guaranteed delete (`delete(path, { guaranteed: true })`: retried through connection loss until the node is
 * known gone, the session has expired, or the client is closed). What the recipes add is when the caller
 * stops waiting: as soon as the first attempt met a connection problem, the rest goes on in the background.
 */
import { backoffMs, sleep } from '@zkwire/common';
import type { RecipeClient } from './zk-client.js';
import { isClientClosed, isNoNode, isRetryable, isSessionExpired } from './zk-errors.js';

/** Between tries of the listing: from 100 ms, at most 2 s. */
const LISTING_BACKOFF = { baseMs: 100, maxMs: 2_000 };

function isFinished(error: unknown): boolean {
  return isNoNode(error) || isSessionExpired(error) || isClientClosed(error);
}

function clientIsDone(client: RecipeClient): boolean {
  return client.state === 'closed' || client.state === 'expired';
}

/** Hands the delete to the client's guaranteed delete and does not wait for it. */
function deleteInBackground(client: RecipeClient, path: string): void {
  client.delete(path, { guaranteed: true }).catch(() => {
    // Closed, expired (an ephemeral went with its session) or refused: nothing left to retry.
  });
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
    deleteInBackground(client, path);
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
  deleteInBackground(client, path);
}

/**
 * Cleans up after a caller that stopped waiting for a create (timeout or abort): the node is deleted once the
 * create lands. While connected the reply is moments away, so this waits for the delete and the caller
 * leaves nothing behind; while disconnected it carries on in the background rather than hold the caller.
 */
export async function abandonCreate(
  client: RecipeClient,
  creating: Promise<{ path: string }>,
): Promise<void> {
  const cleanup = creating.then(
    (node) => deleteGuaranteed(client, node.path).catch(() => {}),
    () => {}, // a failed create already cleans up after itself
  );
  if (client.state === 'connected' || client.state === 'read-only') await cleanup;
}

/**
 * Curator's `FindAndDeleteProtectedNodeInBackground`: after a create whose outcome is unknown, list the
 * parent until that works and delete (guaranteed) any child carrying our protection prefix. PersistentNode
 * uses it for its own protected creates; one-off protected creates get the same from the client.
 */
export function findAndDeleteProtectedInBackground(
  client: RecipeClient,
  parentPath: string,
  prefix: string,
): void {
  void (async () => {
    for (let attempt = 0; ; attempt++) {
      if (clientIsDone(client)) return;
      try {
        await client.connected();
        const children = await client.getChildren(parentPath);
        for (const child of children) {
          if (child.startsWith(prefix)) deleteInBackground(client, `${parentPath}/${child}`);
        }
        return;
      } catch (error) {
        if (isFinished(error) || !isRetryable(error)) return;
      }
      await sleep(backoffMs(attempt, LISTING_BACKOFF), { unref: true });
    }
  })();
}
