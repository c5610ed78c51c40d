/**
 * One znode name: what a path parameter or a child resolves to. Curator's `NodeName.nameFrom` takes an
 * object's `nodeName()` when it has one, else its `toString()`; here the accepted values are named in the
 * type, so that an object without a name fails to compile instead of becoming `[object Object]`.
 */
import { checkNodeName as checkOneNodeName } from '@zkwire/common';
import { InvalidModelArgumentError, invalidModelArgument } from './errors.js';

/** An object that names its own node (Curator's `NodeName`), e.g. a model keyed by its id. */
export interface NodeName {
  nodeName(): string;
}

/** A value a path parameter or a child name can take: a string, a number, a bigint or a {@link NodeName}. */
export type NodeNameValue = string | number | bigint | NodeName;

/** True for an object with a `nodeName()` method. */
export function isNodeName(value: unknown): value is NodeName {
  return (
    typeof value === 'object' && value !== null && typeof (value as Partial<NodeName>).nodeName === 'function'
  );
}

/**
 * The znode name of `value`, checked to be exactly one valid name: not empty, no `/`, not `.` or `..`, none
 * of the characters ZooKeeper refuses. `what` names the value in the error (`parameter {id}`, `child`).
 */
export function nodeNameOf(value: unknown, what: string): string {
  let name: string;
  if (typeof value === 'string') name = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidModelArgumentError(what, `${value} is not a node name`);
    name = String(value);
  } else if (typeof value === 'bigint') name = value.toString();
  else if (isNodeName(value)) {
    const named = value.nodeName();
    if (typeof named !== 'string') {
      throw new InvalidModelArgumentError(what, `nodeName() returned ${typeof named}, not a string`);
    }
    name = named;
  } else {
    throw new InvalidModelArgumentError(
      what,
      `expected a string, number, bigint or an object with nodeName(), got ${describe(value)}`,
    );
  }
  checkNodeName(name, what);
  return name;
}

/** Throws INVALID_ARGUMENT unless `name` is one valid znode name (@zkwire/common's rules). */
export function checkNodeName(name: string, what: string): void {
  checkOneNodeName(name, what, invalidModelArgument);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without nodeName()' : typeof value;
}
