/**
 * The client's `multi` and `multiRead`: the ops checked before anything is sent (naming the op that is
 * wrong), encoded and submitted; a list of no ops is answered locally.
 */
import type { Buffer } from 'node:buffer';
import {
  type CheckedMulti,
  encodeMulti,
  encodeMultiRead,
  type MultiContext,
  multiReadReply,
  multiReply,
  type ReadOpArgs,
  setCheckedCreate,
  setCheckedOp,
} from '../protocol/multi.js';
import { multiContext } from '../protocol/multi-context.js';
import type { PendingRequest } from '../protocol/pending.js';
import { dataBytes, versionArg } from '../util/args.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { Op, OpResult, ReadOp, ReadOutcome } from '../util/multi-types.js';
import type { CallOptions } from '../util/types.js';
import type { ClientCore } from './core.js';

/** Answers a request locally with an empty list, in its place (a multi or multiRead of no ops). */
function answeredEmpty<R extends unknown[]>(request: PendingRequest<R>): void {
  request.local = { value: [] as unknown[] as R };
}

/** `multiRead`: reads in one request (server 3.6.0+), gated on the server's version. */
export function multiReadCall(
  core: ClientCore,
  ops: ReadOp[],
  options?: CallOptions,
): Promise<ReadOutcome[]> {
  try {
    const checked = multiReadArgs(core, ops);
    const xid = core.begin();
    const frame = encodeMultiRead(xid, checked);
    if (checked.length === 0) {
      return core.submit(multiReadReply, xid, frame, undefined, checked, options, answeredEmpty);
    }
    return core.submitGated('multiRead', multiReadReply, xid, frame, undefined, checked, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `multi`: ops applied atomically. */
export function multiCall(core: ClientCore, ops: Op[], options?: CallOptions): Promise<OpResult[]> {
  try {
    const { xid, frame, context } = encodeMultiCall(core, ops);
    // Nothing to send: answered locally, in its place.
    const setup = context.types.length === 0 ? answeredEmpty : undefined;
    return core.submit(multiReply, xid, frame, undefined, context, options, setup);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A multi ready to submit: its xid, its frame, and what its reply's decoder keeps while it is in flight. */
export interface EncodedMulti {
  readonly xid: number;
  readonly frame: Buffer;
  readonly context: MultiContext;
}

/**
 * Checks the ops, then takes the next xid (only once every op passed) and builds the frame. The ops are
 * checked into the client's one CheckedMulti (CheckedMultiSpare, core.ts), emptied after each call.
 */
export function encodeMultiCall(core: ClientCore, ops: Op[]): EncodedMulti {
  if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multi' });
  const spare = core.multiSpare;
  const checked = spare.borrow(ops.length);
  try {
    checkOps(core, ops, checked);
    const xid = core.begin();
    return { xid, frame: encodeMulti(xid, checked), context: multiContext(checked) };
  } finally {
    spare.giveBack(checked);
  }
}

/** Checks `ops` into `checked` (set up for as many ops as `ops` had when the multi was called). */
function checkOps(core: ClientCore, ops: Op[], checked: CheckedMulti): void {
  for (let index = 0; index < checked.paths.length; index++) {
    const op = ops[index];
    switch (op?.type) {
      case 'create': {
        const operation = opLabel(index, 'create');
        setCheckedCreate(checked, index, op.path, core.createArgs(op.path, op.data, op, operation));
        break;
      }
      case 'delete':
      case 'check': {
        const operation = opLabel(index, op.type);
        setCheckedOp(
          checked,
          index,
          op.type,
          op.path,
          core.serverPathBytes(op.path, operation),
          null,
          versionArg(op.version, operation, op.path),
        );
        break;
      }
      case 'setData': {
        const operation = opLabel(index, 'setData');
        setCheckedOp(
          checked,
          index,
          'setData',
          op.path,
          core.serverPathBytes(op.path, operation),
          dataBytes(op.data, core.maxDataLength, operation, op.path),
          versionArg(op.version, operation, op.path),
        );
        break;
      }
      default:
        throw new InvalidArgumentError(
          'ops',
          `op ${index} has unknown type ${JSON.stringify((op as { type?: unknown } | undefined)?.type)}`,
          { operation: 'multi' },
        );
    }
  }
}

type WriteOpType = Op['type'];

// "multi[3].setData", made once per index and op type rather than for every op of every call (an object
// keyed by the four types: a Map lookup per op showed in profiles of a 10-op multi).
const LABELED_OPS = 64;
const labels: Record<WriteOpType, string[]> = { create: [], delete: [], check: [], setData: [] };

function opLabel(index: number, type: WriteOpType): string {
  if (index >= LABELED_OPS) return `multi[${index}].${type}`;
  const row = labels[type];
  return (row[index] ??= `multi[${index}].${type}`);
}

/** The checked ops of a multiRead. */
export function multiReadArgs(core: ClientCore, ops: ReadOp[]): ReadOpArgs[] {
  if (!Array.isArray(ops))
    throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multiRead' });
  return ops.map((op, i) => {
    if (op?.type !== 'getData' && op?.type !== 'getChildren') {
      throw new InvalidArgumentError('ops', `op ${i} must be getData or getChildren`, {
        operation: 'multiRead',
      });
    }
    return {
      type: op.type,
      path: op.path,
      serverPath: core.serverPath(op.path, `multiRead[${i}].${op.type}`),
    };
  });
}
