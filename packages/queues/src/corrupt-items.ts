/**
 * A batch node that cannot be read is moved out of the queue in one transaction (delete it, create its bytes
 * under the corrupt path), so it is neither dropped silently nor met again on every listing.
 */
import { op } from '@zkwire/zk-wire-client';
import type { CorruptQueueItemError } from './errors.js';
import { retryTransient } from './retry.js';
import type { QueueClient } from './zk-client.js';
import { isNodeExists, isNoNode, isTakenByAnother } from './zk-errors.js';

/** Where a corrupt node goes: a path to move it under, or `null` to delete it (Curator's behaviour). */
export type CorruptItemTarget = string | null;

function failedIndexOf(error: unknown): number | undefined {
  const index = (error as { failedIndex?: unknown } | null)?.failedIndex;
  return typeof index === 'number' ? index : undefined;
}

/**
 * Moves (or deletes) the corrupt node `queuePath/name`; `version` guards against a node that changed hands
 * (-1 when the caller holds the item lock). Returns `'moved'` with `error.movedTo` set, `'deleted'`, or
 * `'taken'` when another consumer removed it first. Throws when the node cannot be removed at all; the caller
 * then skips the name for the rest of its life so that it is not looped on.
 */
export async function moveCorruptItem(
  client: QueueClient,
  itemPath: string,
  name: string,
  data: Buffer,
  version: number,
  target: CorruptItemTarget,
  error: CorruptQueueItemError,
  signal?: AbortSignal,
): Promise<'moved' | 'deleted' | 'taken'> {
  try {
    if (target === null) {
      await retryTransient(client, () => client.delete(itemPath, { version }), { signal });
      return 'deleted';
    }
    let destination = `${target}/${name}`;
    let mode: 'persistent' | 'persistent-sequential' = 'persistent';
    for (let attempt = 0; ; attempt++) {
      try {
        const results = await retryTransient(
          client,
          () => client.multi([op.delete(itemPath, version), op.create(destination, data, { mode })]),
          { signal },
        );
        const created = results[1] as { path?: string } | undefined;
        error.movedTo = typeof created?.path === 'string' ? created.path : destination;
        return 'moved';
      } catch (moveError) {
        const index = failedIndexOf(moveError);
        if (index === 0 && isTakenByAnother(moveError)) return 'taken';
        if (index === 1 && isNoNode(moveError) && attempt < 3) {
          await client.create(target, null, { createParents: true }).catch((e: unknown) => {
            if (!isNodeExists(e)) throw e;
          });
          continue;
        }
        if (index === 1 && isNodeExists(moveError) && attempt < 3) {
          // A node of that name was moved before (a requeued copy): keep both, with a sequence suffix.
          destination = `${target}/${name}-`;
          mode = 'persistent-sequential';
          continue;
        }
        throw moveError;
      }
    }
  } catch (failure) {
    if (isTakenByAnother(failure) && failedIndexOf(failure) === undefined) return 'taken';
    throw failure;
  }
}
