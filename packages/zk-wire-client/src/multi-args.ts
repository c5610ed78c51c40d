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
    const operation = opLabel(index, op?.type);
    switch (op?.type) {
      case 'create':
        setCheckedCreate(checked, index, op.path, core.createArgs(op.path, op.data, op, operation));
        break;
      case 'delete':
      case 'check':
        setCheckedOp(
          checked,
          index,
          op.type,
          op.path,
          core.serverPath(op.path, operation),
          null,
          versionArg(op.version, operation, op.path),
        );
        break;
      case 'setData':
        setCheckedOp(
          checked,
          index,
          'setData',
          op.path,
          core.serverPath(op.path, operation),
          dataBytes(op.data, core.maxDataLength, operation, op.path),
          versionArg(op.version, operation, op.path),
        );
        break;
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

// "multi[3].setData", made once per index and op type rather than for every op of every call.
const LABELED_OPS = 64;
const labels = new Map<unknown, string[]>([
  ['create', []],
  ['delete', []],
  ['check', []],
  ['setData', []],
]);

function opLabel(index: number, type: unknown): string {
  const row = index < LABELED_OPS ? labels.get(type) : undefined;
  if (row === undefined) return `multi[${index}].${String(type)}`;
  return (row[index] ??= `multi[${index}].${String(type)}`);
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
