/**
 * The slice of `@zkwire/zk-wire-client`'s `ZooKeeperClient` (docs/contracts.md) that the queues use, written
 * structurally: the real client satisfies it, and so does a wrapper (counting calls, injecting faults).
 */

import type { WarnLogger } from './safe-emit.js';

/** A one-shot watch callback, armed by the same request as the read it rides on. */
export type QueueWatcher = (event: { type: string; path: string }) => void;

/** The Stat fields the queues read. */
export interface QueueStat {
  readonly version: number;
  readonly numChildren: number;
  readonly ephemeralOwner: bigint;
}

/** Per-call options. */
export interface QueueCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** Create modes the queues use. */
export type QueueCreateMode = 'persistent' | 'ephemeral' | 'persistent-sequential' | 'container';

/** A multi op, in the shape of the client's `op.create` / `op.delete`. */
export type QueueOp =
  | { type: 'create'; path: string; data: Uint8Array | null; mode: QueueCreateMode; acl: undefined }
  | { type: 'delete'; path: string; version: number };

/** Connection states as the client reports them (Curator's meanings). */
export type QueueConnectionState = 'connected' | 'suspended' | 'reconnected' | 'lost' | 'read-only';

/** What a queue needs from a ZooKeeper client. */
export interface QueueClient {
  readonly sessionId: bigint;
  /** The client's `logger` option: errors nobody else hears are logged there (warn). */
  readonly logger?: WarnLogger | undefined;
  readonly state: string;
  connected(options?: QueueCallOptions): Promise<void>;
  create(
    path: string,
    data?: Uint8Array | string | null,
    options?: QueueCallOptions & { mode?: QueueCreateMode; createParents?: boolean | 'container' },
  ): Promise<string>;
  /** `guaranteed`: the client's guaranteed delete (retried through connection loss until known done). */
  delete(
    path: string,
    options?: QueueCallOptions & { version?: number; guaranteed?: boolean },
  ): Promise<void>;
  exists(path: string, options?: QueueCallOptions & { watch?: QueueWatcher }): Promise<QueueStat | null>;
  getData(
    path: string,
    options?: QueueCallOptions & { watch?: QueueWatcher },
  ): Promise<{ data: Buffer; stat: QueueStat }>;
  getChildren(path: string, options?: QueueCallOptions & { watch?: QueueWatcher }): Promise<string[]>;
  multi(ops: QueueOp[], options?: QueueCallOptions): Promise<unknown[]>;
  on(event: 'state', listener: (state: QueueConnectionState) => void): unknown;
  off?(event: 'state', listener: (state: QueueConnectionState) => void): unknown;
  removeListener?(event: 'state', listener: (state: QueueConnectionState) => void): unknown;
}

/** Subscribes to connection states; returns the unsubscribe function. */
export function onClientState(
  client: QueueClient,
  listener: (state: QueueConnectionState) => void,
): () => void {
  client.on('state', listener);
  return () => {
    if (typeof client.off === 'function') client.off('state', listener);
    else client.removeListener?.('state', listener);
  };
}

/** `op.create` of a persistent-sequential item. */
export function createOp(path: string, data: Uint8Array, mode: QueueCreateMode): QueueOp {
  return { type: 'create', path, data, mode, acl: undefined };
}

/** `op.delete`; version -1 matches any. */
export function deleteOp(path: string, version = -1): QueueOp {
  return { type: 'delete', path, version };
}
