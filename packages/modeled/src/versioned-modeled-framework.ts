/**
 * VersionedModeledFramework (Curator's): reads give the model with its node's data version, and writes are
 * compare-and-set on that version, so read-modify-write loops need no lock. A write that lost the race
 * fails with the client's BadVersionError (code `BADVERSION`): read again and retry.
 */
import type { CallOptions, Op, Stat } from '@zkwire/zk-wire-client';
import { InvalidModelArgumentError } from './errors.js';
import type { VersionOptions, ZNode } from './modeled-framework.js';

/** What a versioned view needs of a framework (plain or cached). */
export interface VersionableFramework<T> {
  readAsZNode(options?: CallOptions): Promise<ZNode<T>>;
  set(model: T, options?: VersionOptions): Promise<string>;
  update(model: T, options?: VersionOptions): Promise<Stat>;
  updateOp(model: T, version?: number): Op;
}

/** A model and the data version it was read at (Curator's `Versioned`). */
export interface Versioned<T> {
  readonly model: T;
  readonly version: number;
}

function checked<T>(value: Versioned<T>, operation: string): Versioned<T> {
  if (typeof value !== 'object' || value === null || !Number.isInteger(value.version)) {
    throw new InvalidModelArgumentError(operation, 'expected { model, version } with an integer version');
  }
  return value;
}

/** The versioned view of a framework: reads through it (from the cache, for a cached one), CAS writes. */
// biome-ignore lint/correctness/noUnusedVariables: N keeps the path's parameters in the type
export class VersionedModeledFramework<T, N extends string[] = string[]> {
  readonly framework: VersionableFramework<T>;

  /** @internal use `framework.versioned()` */
  constructor(framework: VersionableFramework<T>) {
    this.framework = framework;
  }

  /** The model and the version it was read at. */
  async read(options?: CallOptions): Promise<Versioned<T>> {
    const node = await this.framework.readAsZNode(options);
    return { model: node.model, version: node.stat.version };
  }

  /** Creates, or overwrites only if the node is still at `value.version`. */
  async set(value: Versioned<T>, options?: CallOptions): Promise<string> {
    const { model, version } = checked(value, 'set');
    return this.framework.set(model, { ...options, version });
  }

  /** Overwrites only if the node is still at `value.version`; BadVersionError otherwise. */
  async update(value: Versioned<T>, options?: CallOptions): Promise<Stat> {
    const { model, version } = checked(value, 'update');
    return this.framework.update(model, { ...options, version });
  }

  /** A setData op on `value.version`, for `inTransaction`. */
  updateOp(value: Versioned<T>): Op {
    const { model, version } = checked(value, 'updateOp');
    return this.framework.updateOp(model, version);
  }
}
