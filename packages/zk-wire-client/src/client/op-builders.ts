/**
 * Builders of multi and multiRead ops: `op.create(...)`, `op.check(...)`, `readOp.getData(...)`.
 */
import type { Op, ReadOp } from '../util/multi-types.js';
import type { ACL, CreateMode, Data } from '../util/types.js';

/** Write ops of {@link ZooKeeperClient.multi}. */
export const op = {
  /** Creates a node (mode default 'persistent'; the result carries the actual path and the Stat). */
  create(
    path: string,
    data?: Data,
    options: { mode?: CreateMode; acl?: ACL[]; ttlMs?: number | bigint } = {},
  ): Op {
    const created: Op = { type: 'create', path, data, mode: options.mode ?? 'persistent', acl: options.acl };
    if (options.ttlMs !== undefined) created.ttlMs = options.ttlMs;
    return created;
  },
  /** Deletes a node; version -1 (default) = any. */
  delete(path: string, version = -1): Op {
    return { type: 'delete', path, version };
  },
  /** Sets data; version -1 (default) = any. */
  setData(path: string, data: Data, version = -1): Op {
    return { type: 'setData', path, data, version };
  },
  /** Fails the transaction unless the node's version is `version`. */
  check(path: string, version: number): Op {
    return { type: 'check', path, version };
  },
} as const;

/** Read ops of {@link ZooKeeperClient.multiRead}. */
export const readOp = {
  /** Reads data + Stat. */
  getData(path: string): ReadOp {
    return { type: 'getData', path };
  },
  /** Lists children. */
  getChildren(path: string): ReadOp {
    return { type: 'getChildren', path };
  },
} as const;
