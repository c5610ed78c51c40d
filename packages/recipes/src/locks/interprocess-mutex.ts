/**
 * InterProcessMutex: Curator's fair, reentrant lock (curator-compat.md §2). Contenders are protected
 * EPHEMERAL_SEQUENTIAL children `_c_<uuid>-lock-<seq>` of the lock path, holding the local address as data
 * like Curator's default; the lowest holds, each other waits on its immediate predecessor only.
 */
import { nodeDataOf } from '../internal-common/default-data.js';
import { validateRecipePath } from '../internal-common/validate.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { standardPredicate } from './lock-internals.js';
import { type NodeLockOptions, ReentrantNodeLock } from './reentrant-node-lock.js';

/** Curator's lock name for mutex contenders. */
export const MUTEX_LOCK_NAME = 'lock-';

/** Options of an InterProcessMutex. */
export interface InterProcessMutexOptions extends NodeLockOptions {
  /** Data of our contender node; default: the local address, as Curator writes. Strings are UTF-8. */
  nodeData?: Uint8Array | string;
}

/** A fair, reentrant lock across processes, compatible with Curator's InterProcessMutex on the same path. */
export class InterProcessMutex extends ReentrantNodeLock {
  /**
   * @param client a connected `@zkwire/zk-wire-client` client
   * @param path the lock path, shared with every contender (Java or Node)
   */
  constructor(client: RecipeClient, path: string, options: InterProcessMutexOptions = {}) {
    const basePath = validateRecipePath(path);
    super(
      client,
      {
        basePath,
        sortNames: [MUTEX_LOCK_NAME],
        nodeToCreate: () => ({ name: MUTEX_LOCK_NAME, mode: 'ephemeral-sequential' }),
        nodeData: () => nodeDataOf(options.nodeData),
        predicate: standardPredicate(1),
      },
      options,
    );
  }
}
