/**
 * InterProcessMutex: Curator's fair, reentrant lock (curator/locks.md §2). Contenders are protected
 * EPHEMERAL_SEQUENTIAL children `_c_<uuid>-lock-<seq>` of the lock path, holding the local address as data
 * like Curator's default; the lowest holds, each other waits on its immediate predecessor only.
 */
import { nodeDataOf } from '../internal-common/default-data.js';
import {
  adoptOwnNode,
  HandoffRefusedError,
  type RecipeHandoff,
  recipeHandoff,
  recipeHandoffArg,
} from '../internal-common/recipe-handoff.js';
import { sortContenders } from '../internal-common/sequence-sort.js';
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

  /**
   * Hands the held lock on with its session (session hand-off): this object lets go of it without deleting
   * its node (it no longer holds; its `lostSignal` is left as it was), and the returned plain object lets
   * {@link InterProcessMutex.resume} take it over in the client that resumes the session. Call it before
   * the client's `detach()`. NotLockOwnerError when not held (or while an acquire is under way).
   */
  handOff(): RecipeHandoff {
    const { path, count } = this.giveUpHold();
    return recipeHandoff('InterProcessMutex', this.basePath, path, count);
  }

  /**
   * The lock that `handoff` ({@link InterProcessMutex.handOff}) names, held by a new object on `client`,
   * which must have resumed the session (`connect({ session })`): its node is adopted, not made again, after
   * checking that it exists, is this session's and still holds the lock. The hold count carries over.
   * @throws InvalidRecipeArgumentError for a bad hand-off (before anything is sent); HandoffRefusedError
   *   when the node is gone, another session's, or no longer the holder.
   */
  static async resume(
    client: RecipeClient,
    handoff: RecipeHandoff,
    options: InterProcessMutexOptions = {},
  ): Promise<InterProcessMutex> {
    const checked = recipeHandoffArg(handoff, 'InterProcessMutex', (path) => path);
    const mutex = new InterProcessMutex(client, checked.path, options);
    await adoptOwnNode(client, checked.nodePath, true);
    const children = await client.getChildren(checked.path);
    const ourName = checked.nodePath.slice(checked.path.length + 1);
    const verdict = standardPredicate(1)(sortContenders(children, [MUTEX_LOCK_NAME]), ourName);
    if (verdict?.acquired !== true)
      throw new HandoffRefusedError(checked.nodePath, 'it does not hold the lock');
    mutex.adoptHold(checked.nodePath, checked.holdCount);
    return mutex;
  }
}
