/**
 * The slice of `@zkwire/zk-wire-client`'s `ZooKeeperClient` that service discovery uses, written structurally
 * (as the recipes do) so the real client satisfies it without a cast, and a test may wrap it.
 */

import type { WarnLogger } from './safe-emit.js';

/** A watch callback, armed by the same request as the read it rides on. */
export type DiscoveryWatcher = (event: { type: string; path: string }) => void;

/** The Stat fields discovery reads. */
export interface DiscoveryStat {
  readonly version: number;
  readonly ephemeralOwner: bigint;
}

/** Per-call options the client accepts. */
export interface DiscoveryCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** Connection states reported by the client (`on('state')`). */
export type DiscoveryConnectionState = 'connected' | 'suspended' | 'reconnected' | 'lost' | 'read-only';

/** What service discovery needs from a ZooKeeper client; `@zkwire/zk-wire-client`'s client satisfies it. */
export interface DiscoveryClient {
  readonly sessionId: bigint;
  /** The client's `logger` option: errors nobody listens for are logged there (warn). */
  readonly logger?: WarnLogger | undefined;
  create(
    path: string,
    data?: Uint8Array | string | null,
    options?: DiscoveryCallOptions & {
      mode?: 'persistent' | 'ephemeral' | 'ephemeral-sequential' | 'container';
      createParents?: boolean | 'container';
    },
  ): Promise<string>;
  delete(path: string, options?: DiscoveryCallOptions & { version?: number }): Promise<void>;
  exists(
    path: string,
    options?: DiscoveryCallOptions & { watch?: DiscoveryWatcher },
  ): Promise<DiscoveryStat | null>;
  getData(
    path: string,
    options?: DiscoveryCallOptions & { watch?: DiscoveryWatcher },
  ): Promise<{ data: Uint8Array; stat: DiscoveryStat }>;
  setData(
    path: string,
    data: Uint8Array | string | null,
    options?: DiscoveryCallOptions & { version?: number },
  ): Promise<unknown>;
  getChildren(path: string, options?: DiscoveryCallOptions & { watch?: DiscoveryWatcher }): Promise<string[]>;
  removeWatches(
    path: string,
    type: 'children' | 'data' | 'any',
    options?: DiscoveryCallOptions & { watcher?: DiscoveryWatcher; local?: boolean },
  ): Promise<void>;
  on(event: 'state', listener: (state: DiscoveryConnectionState) => void): unknown;
  off(event: 'state', listener: (state: DiscoveryConnectionState) => void): unknown;
}

export {
  isClientClosed,
  isNodeExists,
  isNoNode,
  isNoWatcher,
  isRetryable,
  isSessionExpired,
} from '@zkwire/zk-wire-client';
