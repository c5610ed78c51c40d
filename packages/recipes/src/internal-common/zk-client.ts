/**
 * The slice of `@zkwire/zk-wire-client`'s `ZooKeeperClient` (docs/contracts.md) that the recipes use, written
 * structurally so a recipe works with any object of this shape: the real client, or a wrapper that counts
 * watch events in a test.
 */
import type { RecipeLogger } from './report.js';

/** A watch callback, armed by the same request as the read it rides on. */
export type RecipeWatcher = (event: { type: string; path: string }) => void;

/** The fields of a ZooKeeper Stat that the recipes read. */
export interface RecipeStat {
  readonly version: number;
  readonly ephemeralOwner: bigint;
}

/** Per-call options the client accepts. */
export interface RecipeCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Create modes the recipes use (a subset of the client's `CreateMode`). */
export type RecipeCreateMode = 'persistent' | 'ephemeral' | 'ephemeral-sequential' | 'container';

/** An op of a `multi`, in the shape of the client's `op.*` builders (fenced writes send these). */
export type RecipeOp =
  | {
      type: 'create';
      path: string;
      data: Uint8Array | string | null | undefined;
      /** Any of the client's create modes (`persistent`, `ephemeral-sequential`, `persistent-ttl`, ...). */
      mode: string;
      acl?: readonly unknown[] | undefined;
      ttlMs?: number | bigint;
    }
  | { type: 'delete'; path: string; version: number }
  | { type: 'setData'; path: string; data: Uint8Array | string | null | undefined; version: number }
  | { type: 'check'; path: string; version: number };

/** The result of one op of a successful `multi`. */
export type RecipeOpResult =
  | { type: 'create'; path: string }
  | { type: 'delete' }
  | { type: 'setData'; stat: RecipeStat }
  | { type: 'check' };

/** Connection states reported by the client (`on('state')`). */
export type RecipeConnectionState = 'connected' | 'suspended' | 'reconnected' | 'lost' | 'read-only';

/** What a recipe needs from a ZooKeeper client. `@zkwire/zk-wire-client`'s client satisfies it. */
export interface RecipeClient {
  readonly sessionId: bigint;
  /** The client's `logger` option: background errors nobody listens for are logged there (warn). */
  readonly logger?: RecipeLogger | undefined;
  readonly state: string;
  connected(options?: RecipeCallOptions): Promise<void>;
  create(
    path: string,
    data?: Uint8Array | string | null,
    options?: RecipeCallOptions & {
      mode?: RecipeCreateMode;
      /** The client's protected create (Curator's withProtection()). */
      protected?: { maxAttempts?: number };
      createParents?: 'container';
    },
  ): Promise<string>;
  /** `guaranteed`: the client's guaranteed delete (retried through connection loss until known done). */
  delete(
    path: string,
    options?: RecipeCallOptions & { version?: number; guaranteed?: boolean },
  ): Promise<void>;
  exists(path: string, options?: RecipeCallOptions & { watch?: RecipeWatcher }): Promise<RecipeStat | null>;
  getData(
    path: string,
    options?: RecipeCallOptions & { watch?: RecipeWatcher },
  ): Promise<{ data: Uint8Array; stat: RecipeStat }>;
  getChildren(path: string, options?: RecipeCallOptions & { watch?: RecipeWatcher }): Promise<string[]>;
  /** The client's transaction; only fenced writes use it (optional, so read-only wrappers still fit). */
  multi?(ops: RecipeOp[], options?: RecipeCallOptions): Promise<RecipeOpResult[]>;
  on(event: 'state', listener: (state: RecipeConnectionState) => void): unknown;
  off?(event: 'state', listener: (state: RecipeConnectionState) => void): unknown;
  removeListener?(event: 'state', listener: (state: RecipeConnectionState) => void): unknown;
}

/** Subscribes to the client's connection states; returns the function that unsubscribes. */
export function onClientState(
  client: RecipeClient,
  listener: (state: RecipeConnectionState) => void,
): () => void {
  client.on('state', listener);
  return () => {
    if (typeof client.off === 'function') client.off('state', listener);
    else client.removeListener?.('state', listener);
  };
}
