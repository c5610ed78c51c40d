/**
 * What a recipe needs of a ZooKeeper client: the members of `@zkwire/zk-wire-client`'s client it calls, so the
 * client, a chroot view of it (`client.chroot(root)`) and a wrapper of either (counting watch events in a
 * test) all fit. The other names here are the client's own types under the names the recipes published.
 */
import type {
  CallOptions,
  ClientApi,
  ConnectionState,
  CreateMode,
  Op,
  OpResult,
  Stat,
  Watcher,
  WatchOptions,
} from '@zkwire/zk-wire-client';

export { onClientState } from '@zkwire/common';

/** A watch callback, armed by the same request as the read it rides on. */
export type RecipeWatcher = Watcher;

/** A ZooKeeper Stat. */
export type RecipeStat = Stat;

/** Per-call options the client accepts. */
export type RecipeCallOptions = CallOptions;

/** The client's create modes. */
export type RecipeCreateMode = CreateMode;

/** An op of a `multi`, as the client's `op.*` builders make them (fenced writes send these). */
export type RecipeOp = Op;

/** The result of one op of a successful `multi`. */
export type RecipeOpResult = OpResult;

/** Connection states reported by the client (`on('state')`). */
export type RecipeConnectionState = ConnectionState;

/** What a recipe needs from a ZooKeeper client. */
export type RecipeClient = Pick<
  ClientApi,
  | 'sessionId'
  | 'logger'
  | 'state'
  | 'connected'
  | 'create'
  | 'delete'
  | 'exists'
  | 'getChildren'
  | 'multi'
  | 'on'
  | 'off'
> & {
  /**
   * The client's getData, its data read as the Uint8Array it is (a Buffer): recipes read bytes, and a
   * wrapper may hand back a plain Uint8Array.
   */
  getData(path: string, options?: WatchOptions): Promise<{ data: Uint8Array; stat: Stat }>;
};
