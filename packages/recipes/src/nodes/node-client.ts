/**
 * The client calls PersistentNode and PersistentTtlNode use beyond the recipes' common {@link RecipeClient}:
 * every create mode with a TTL and parent creation, `setData`, and the local removal of a watch on close.
 * `@zkwire/zk-wire-client`'s client satisfies it.
 */
import type { RecipeCallOptions, RecipeClient, RecipeWatcher } from '../internal-common/zk-client.js';
import type { PersistentNodeMode } from './persistent-node-options.js';

/** What the node recipes need from a ZooKeeper client. */
export interface NodeClient extends RecipeClient {
  create(
    path: string,
    data?: Uint8Array | string | null,
    options?: RecipeCallOptions & {
      mode?: PersistentNodeMode;
      ttlMs?: number;
      createParents?: boolean | 'container' | 'persistent';
    },
  ): Promise<string>;
  setData(
    path: string,
    data: Uint8Array | string | null,
    options?: RecipeCallOptions & { version?: number },
  ): Promise<unknown>;
  /** Removes one watcher (`local`: even when the server cannot be asked); rejects NoWatcher if it is not armed. */
  removeWatches?(
    path: string,
    type: 'data',
    options: RecipeCallOptions & { watcher?: RecipeWatcher; local?: boolean },
  ): Promise<void>;
}
