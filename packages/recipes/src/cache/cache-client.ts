/**
 * The slice of the client that the caches use: the recipes' client and the members only the caches call, all
 * picked from `@zkwire/zk-wire-client`'s own types, so the client, a chroot view and a wrapper of either fit.
 * The client's other types, under the names this package published, are in cache-types.ts.
 */
import type { ClientApi } from '@zkwire/zk-wire-client';
import type { RecipeClient } from '../internal-common/zk-client.js';

/** What the caches need from a ZooKeeper client; `@zkwire/zk-wire-client`'s client satisfies it. */
export type CacheClient = RecipeClient &
  Pick<ClientApi, 'serverVersion' | 'setData' | 'addWatch' | 'removeWatches'>;

/** The error code the client gives an operation the server is too old for (addWatch on 3.5). */
export function isUnsupportedByServer(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'UNSUPPORTEDBYSERVER';
}

/** True for the client's "no such watcher" error (a one-shot watch that already fired). */
export function isNoWatcher(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'NOWATCHER';
}
