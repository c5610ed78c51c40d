/**
 * The lock-safe mode's per-item lock (curator/queues.md §8.3): an EPHEMERAL `LP/<item name>`, the same name
 * as the item. While it exists no other consumer touches the item; if its holder dies, the server removes it
 * with the session and the item is delivered again.
 */

import type { Watcher } from '@zkwire/zk-wire-client';
import { waitOutTransient } from './retry.js';
import type { QueueClient } from './zk-client.js';
import { isNodeExists, isNoNode, isSessionExpired, isTransient } from './zk-errors.js';

/**
 * Lock nodes held in this process, per client. A create that failed with connection loss may still have
 * made the node; on the retry NODEEXISTS with our own session as owner means "ours" only if no other
 * consumer of this process holds it, which this registry tells.
 */
const heldByClient = new WeakMap<QueueClient, Set<string>>();

function held(client: QueueClient): Set<string> {
  let set = heldByClient.get(client);
  if (!set) heldByClient.set(client, (set = new Set()));
  return set;
}

/** Outcome of {@link acquireItemLock}. */
export type ItemLockResult = 'acquired' | 'locked';

/**
 * Creates `lockNodePath` as EPHEMERAL. 'locked' when another consumer holds it; then `onRelease` fires once
 * the lock node goes away (at once if it is already gone). The lock parent is re-created if it was removed.
 *
 * `readAlong` is called right after the first create is sent, so its request follows the create on the same
 * session: ZooKeeper applies a session's requests in order, so when that create succeeds, the read saw the
 * item under our lock. Its result is returned as `read` only then (one round trip saved per item).
 */
export async function acquireItemLock<R>(
  client: QueueClient,
  lockNodePath: string,
  onRelease: Watcher,
  signal?: AbortSignal,
  readAlong?: () => Promise<R>,
): Promise<{ result: ItemLockResult; read?: Promise<R> | undefined }> {
  const mine = held(client);
  if (mine.has(lockNodePath)) return { result: 'locked' };
  mine.add(lockNodePath);
  let uncertain = false;
  try {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const creating = client.create(lockNodePath, null, { mode: 'ephemeral' });
        const read = attempt === 1 ? readAlong?.() : undefined;
        await creating;
        return { result: 'acquired', read };
      } catch (error) {
        // The create's reply was lost: it may have made the node (resolved by the owner check below).
        if (isTransient(error)) uncertain = true;
        // The steps after a failed create talk to the server too; a connection lost in any of them is
        // retried from the create, as the create's own is (a consumer must not end on a connection loss).
        try {
          const outcome = await afterFailedCreate(client, lockNodePath, onRelease, error, attempt, uncertain);
          if (outcome === 'retry') continue;
          if (outcome === 'locked') mine.delete(lockNodePath);
          return { result: outcome };
        } catch (stepError) {
          if (!isTransient(stepError) || attempt >= 30) throw stepError;
          await waitOutTransient(client, attempt, signal);
        }
      }
    }
  } catch (error) {
    mine.delete(lockNodePath);
    throw error;
  }
}

/**
 * What a failed lock create means: 'retry' (after a lost reply or a re-made parent), or who holds the lock.
 * Throws the create's error when it is final, and any error of its own follow-up calls.
 */
async function afterFailedCreate(
  client: QueueClient,
  lockNodePath: string,
  onRelease: Watcher,
  error: unknown,
  attempt: number,
  uncertain: boolean,
): Promise<ItemLockResult | 'retry'> {
  if (isTransient(error) && attempt < 30) throw error; // backed off and retried by the caller
  if (isNoNode(error) && attempt < 30) {
    // The lock parent was removed (or never made by this peer): make it and try again.
    const parent = lockNodePath.slice(0, lockNodePath.lastIndexOf('/'));
    await client.create(parent, null, { mode: 'persistent', createParents: true }).catch((e: unknown) => {
      if (!isNodeExists(e)) throw e;
    });
    return 'retry';
  }
  if (!isNodeExists(error)) throw error;
  const stat = await client.exists(lockNodePath, { watch: onRelease });
  if (stat === null) {
    onRelease({ type: 'deleted', path: lockNodePath });
    return 'retry';
  }
  if (uncertain && stat.ephemeralOwner === client.sessionId) return 'acquired';
  return 'locked';
}

/** Forgets a lock this process held whose node is already gone (deleted with its item in one transaction). */
export function forgetItemLock(client: QueueClient, lockNodePath: string): void {
  held(client).delete(lockNodePath);
}

/**
 * Deletes our lock node with the client's guaranteed delete (Curator's guaranteed(): retried through
 * connection loss until known done). A lock already gone (NONODE) or gone with an expired session is released.
 */
export async function releaseItemLock(client: QueueClient, lockNodePath: string): Promise<void> {
  try {
    await client.delete(lockNodePath, { guaranteed: true });
  } catch (error) {
    if (!isNoNode(error) && !isSessionExpired(error)) throw error;
  } finally {
    held(client).delete(lockNodePath);
  }
}
