/**
 * The public types of multi transactions and multiRead: the ops (built with `op.*` and `readOp.*`) and their
 * results. Apart from util/types.ts because a multiRead outcome can be an error (util/errors.ts).
 */
import type { ZooKeeperError } from './errors.js';
import type { ACL, CreateMode, Data, Stat } from './types.js';

/** An op of a multi transaction (build with `op.*`). */
export type Op =
  | {
      type: 'create';
      path: string;
      data: Data;
      mode: CreateMode;
      acl: ACL[] | undefined;
      ttlMs?: number | bigint;
    }
  | { type: 'delete'; path: string; version: number }
  | { type: 'setData'; path: string; data: Data; version: number }
  | { type: 'check'; path: string; version: number };

/** The result of one successful multi op. */
export type OpResult =
  | { type: 'create'; path: string; stat: Stat | null }
  | { type: 'delete' }
  | { type: 'setData'; stat: Stat }
  | { type: 'check' };

/** A read op of multiRead (build with `readOp.*`). */
export type ReadOp = { type: 'getData'; path: string } | { type: 'getChildren'; path: string };

/** The result of one successful multiRead op. */
export type ReadResult =
  | { type: 'getData'; data: Buffer; stat: Stat }
  | { type: 'getChildren'; children: string[] };

/** A per-op outcome of multiRead. */
export type ReadOutcome = ReadResult | ZooKeeperError;
