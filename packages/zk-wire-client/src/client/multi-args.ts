/**
 * Checks the ops of multi and multiRead before anything is sent, naming the op that is wrong, and builds a
 * multi's frame from its checked ops.
 */
import type { Buffer } from 'node:buffer';
import {
  type CheckedMulti,
  emptyCheckedMulti,
  encodeMulti,
  type MultiContext,
  type ReadOpArgs,
  setCheckedCreate,
  setCheckedOp,
} from '../protocol/multi.js';
import { multiContext } from '../protocol/multi-context.js';
import { dataBytes, versionArg } from '../util/args.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { Op, ReadOp } from '../util/multi-types.js';
import type { ClientCore } from './core.js';

/** A multi ready to submit: its xid, its frame, and what its reply's decoder keeps while it is in flight. */
export interface EncodedMulti {
  readonly xid: number;
  readonly frame: Buffer;
  readonly context: MultiContext;
}

/**
 * Checks the ops, then takes the next xid (only once every op passed) and builds the frame. The ops are
 * checked into the client's one CheckedMulti ({@link CheckedMultiSpare}), emptied after each call.
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

/**
 * Longest multi whose record is kept for the next call. A record's arrays keep the length of the longest multi
 * checked into them, so one transaction of 50,000 deletes would otherwise hold ~1.6 MB of arrays for as long as
 * the client lives.
 */
const KEPT_UP_TO = 1024;

const NO_PATHS: string[] = [];

/**
 * The CheckedMulti a client's multi calls check their ops into, one per client (its ClientCore holds it): the
 * four arrays a multi needs only until its frame is built are a good part of what a multi allocates, and at
 * depth a multi's CPU goes with what it allocates (made, then collected by the young-generation GC); the
 * results array is sized once for the same reason (protocol/multi.ts). A call made while the record is in
 * use (an op's getter calling multi) checks into a record of its own.
 */
export class CheckedMultiSpare {
  /** The record kept, made by the first multi (a client that never calls multi keeps none). */
  private spare: CheckedMulti | undefined;
  private inUse = false;

  /** The record set up for `count` ops (a new `paths` array each time), or a new one if in use. */
  borrow(count: number): CheckedMulti {
    if (this.inUse) return emptyCheckedMulti(count);
    this.inUse = true;
    const checked = (this.spare ??= emptyCheckedMulti(0));
    checked.paths = new Array(count);
    return checked;
  }

  /** Lets go of what the last multi's checked ops held (its data, its paths) and keeps `checked`. */
  giveBack(checked: CheckedMulti): void {
    if (checked !== this.spare) return; // a record of its own, made while the kept one was in use
    this.inUse = false;
    const count = checked.paths.length;
    if (count > KEPT_UP_TO) {
      this.spare = undefined;
      return;
    }
    for (let i = 0; i < count; i++) {
      checked.data[i] = null;
      checked.serverPaths[i] = undefined;
    }
    checked.creates = undefined;
    checked.paths = NO_PATHS;
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
