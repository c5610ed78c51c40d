/**
 * Checks the ops of multi and multiRead before anything is sent, naming the op that is wrong.
 */
import { dataBytes, versionArg } from './args.js';
import type { ClientCore } from './client-core.js';
import { InvalidArgumentError } from './errors.js';
import {
  type CheckedMulti,
  emptyCheckedMulti,
  type ReadOpArgs,
  setCheckedCreate,
  setCheckedOp,
} from './ops/multi.js';
import type { Op, ReadOp } from './types.js';

/** The checked ops of a multi (one array per field: see CheckedMulti). */
export function multiArgs(core: ClientCore, ops: Op[]): CheckedMulti {
  if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multi' });
  const checked = emptyCheckedMulti(ops.length);
  for (let index = 0; index < ops.length; index++) {
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
  return checked;
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
