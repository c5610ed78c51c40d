/**
 * Checks the ops of multi and multiRead before anything is sent, naming the op that is wrong.
 */
import { dataBytes, versionArg } from './args.js';
import type { ClientCore } from './client-core.js';
import { InvalidArgumentError } from './errors.js';
import type { MultiOpArgs, ReadOpArgs } from './ops/multi.js';
import type { Op, ReadOp } from './types.js';

/** The checked ops of a multi. */
export function multiArgs(core: ClientCore, ops: Op[]): MultiOpArgs[] {
  if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multi' });
  return ops.map((op, index) => {
    const operation = opLabel(index, op?.type);
    switch (op?.type) {
      case 'create':
        return { type: 'create', path: op.path, create: core.createArgs(op.path, op.data, op, operation) };
      case 'delete':
      case 'check':
        return {
          type: op.type,
          path: op.path,
          serverPath: core.serverPath(op.path, operation),
          version: versionArg(op.version, operation, op.path),
        };
      case 'setData':
        return {
          type: 'setData',
          path: op.path,
          serverPath: core.serverPath(op.path, operation),
          data: dataBytes(op.data, core.maxDataLength, operation, op.path),
          version: versionArg(op.version, operation, op.path),
        };
      default:
        throw new InvalidArgumentError(
          'ops',
          `op ${index} has unknown type ${JSON.stringify((op as { type?: unknown })?.type)}`,
          { operation: 'multi' },
        );
    }
  });
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
