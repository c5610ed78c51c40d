/**
 * The client calls PersistentNode and PersistentTtlNode use beyond the recipes' common {@link RecipeClient}:
 * `setData`, and the local removal of a watch on close.
 */
import type { ClientApi } from '@zkwire/zk-wire-client';
import type { RecipeClient } from '../internal-common/zk-client.js';

/** What the node recipes need from a ZooKeeper client. */
export type NodeClient = RecipeClient & Pick<ClientApi, 'setData' | 'removeWatches'>;
