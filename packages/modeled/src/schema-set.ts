/**
 * Schemas for a subtree (Curator's `Schema` and `SchemaSet`): per path or pattern, whether nodes may or must
 * be ephemeral, sequential or watched, whether they may be deleted, and a data validator. Checked before
 * anything is sent by the modeled framework (`modeled(client, spec, { schemaSet })`) and, opt-in, for every
 * call of a client wrapped by {@link schemaCheckedClient}. A refusal is a {@link SchemaViolationError} with
 * the schema's name.
 */
import type { CreateMode, Op, ZooKeeperClient } from '@zkwire/zk-wire-client';
import { InvalidModelArgumentError, SchemaViolationError } from './errors.js';
import { type AnyZPath, ZPath } from './zpath.js';

/** Curator's `Schema.Allowance`: the nodes may, must, or must not have the property. */
export type Allowance = 'can' | 'must' | 'cannot';

/** One schema of a {@link SchemaSet}. */
export interface SchemaOptions {
  /** The name shown in errors. */
  name: string;
  /**
   * The nodes it covers: a fixed path (`'/config'`), a RegExp matched against the whole path, or a ZPath
   * template (each parameter one node name).
   */
  path: string | RegExp | AnyZPath;
  documentation?: string;
  /** Default 'can'. */
  ephemeral?: Allowance;
  /** Default 'can'. */
  sequential?: Allowance;
  /** Default 'can'. */
  watched?: Allowance;
  /** Default true. */
  canBeDeleted?: boolean;
  /** Checks the data of creates and setData: true, or false / a reason to refuse. */
  validateData?: (path: string, data: Uint8Array | null) => boolean | string;
  /** Free-form metadata (Curator's `metadata`). */
  metadata?: Readonly<Record<string, string>>;
}

/** A schema with its defaults applied. */
export interface Schema extends Readonly<Required<Omit<SchemaOptions, 'path' | 'validateData'>>> {
  readonly path: string | RegExp;
  readonly validateData: ((path: string, data: Uint8Array | null) => boolean | string) | undefined;
}

const ALLOWANCES = new Set<unknown>(['can', 'must', 'cannot']);

function isEphemeral(mode: CreateMode): boolean {
  return mode === 'ephemeral' || mode === 'ephemeral-sequential';
}
function isSequential(mode: CreateMode): boolean {
  return mode.includes('sequential');
}

function schemaOf(options: SchemaOptions): Schema {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new InvalidModelArgumentError('schema', 'name must be a non-empty string');
  }
  const where = `schema "${options.name}"`;
  let path: string | RegExp;
  if (options.path instanceof ZPath)
    path = options.path.isResolved ? options.path.fullPath() : options.path.toSchemaPathPattern();
  else if (options.path instanceof RegExp)
    path = new RegExp(`^(?:${options.path.source})$`, options.path.flags.replace('g', ''));
  else if (typeof options.path === 'string' && options.path.startsWith('/')) path = options.path;
  else throw new InvalidModelArgumentError(where, 'path must be a path, a RegExp or a ZPath');
  for (const key of ['ephemeral', 'sequential', 'watched'] as const) {
    if (options[key] !== undefined && !ALLOWANCES.has(options[key])) {
      throw new InvalidModelArgumentError(where, `${key} must be 'can', 'must' or 'cannot'`);
    }
  }
  if (options.validateData !== undefined && typeof options.validateData !== 'function') {
    throw new InvalidModelArgumentError(where, 'validateData must be a function');
  }
  return {
    name: options.name,
    path,
    documentation: options.documentation ?? '',
    ephemeral: options.ephemeral ?? 'can',
    sequential: options.sequential ?? 'can',
    watched: options.watched ?? 'can',
    canBeDeleted: options.canBeDeleted ?? true,
    validateData: options.validateData,
    metadata: options.metadata ?? {},
  };
}

const DEFAULT_SCHEMA: Schema = schemaOf({ name: 'default', path: /.*/ });

/** A set of schemas; see the module notes. */
export class SchemaSet {
  readonly #fixed = new Map<string, Schema>();
  readonly #patterns: Schema[] = [];
  readonly #useDefaultSchema: boolean;

  /**
   * @param schemas looked up by fixed path first, then by pattern in the order given
   * @param options `useDefaultSchema` (default true): paths no schema covers are allowed everything; with
   *   false they are refused
   */
  constructor(schemas: SchemaOptions[], options: { useDefaultSchema?: boolean } = {}) {
    if (!Array.isArray(schemas)) throw new InvalidModelArgumentError('SchemaSet', 'schemas must be an array');
    for (const schema of schemas.map(schemaOf)) {
      if (typeof schema.path === 'string') this.#fixed.set(schema.path, schema);
      else this.#patterns.push(schema);
    }
    this.#useDefaultSchema = options.useDefaultSchema ?? true;
  }

  /** The schema covering `path`; SchemaViolationError when none does and there is no default. */
  getSchema(path: string): Schema {
    const schema = this.#fixed.get(path) ?? this.#patterns.find((s) => (s.path as RegExp).test(path));
    if (schema !== undefined) return schema;
    if (this.#useDefaultSchema) return DEFAULT_SCHEMA;
    throw new SchemaViolationError('none', path, 'no schema covers this path');
  }

  /** Checks a create (mode, then data). */
  checkCreate(path: string, mode: CreateMode, data: Uint8Array | null): void {
    const schema = this.getSchema(path);
    const refuse = (reason: string) => {
      throw new SchemaViolationError(schema.name, path, reason);
    };
    if (isEphemeral(mode) && schema.ephemeral === 'cannot') refuse('cannot be ephemeral');
    if (!isEphemeral(mode) && schema.ephemeral === 'must') refuse('must be ephemeral');
    if (isSequential(mode) && schema.sequential === 'cannot') refuse('cannot be sequential');
    if (!isSequential(mode) && schema.sequential === 'must') refuse('must be sequential');
    this.#checkData(schema, path, data);
  }

  /** Checks a setData's data. */
  checkUpdate(path: string, data: Uint8Array | null): void {
    this.#checkData(this.getSchema(path), path, data);
  }

  /** Checks a delete. */
  checkDelete(path: string): void {
    const schema = this.getSchema(path);
    if (!schema.canBeDeleted) throw new SchemaViolationError(schema.name, path, 'cannot be deleted');
  }

  /** Checks a read with (`watching`) or without a watch. */
  checkWatch(path: string, watching: boolean): void {
    const schema = this.getSchema(path);
    if (watching && schema.watched === 'cannot')
      throw new SchemaViolationError(schema.name, path, 'cannot be watched');
    if (!watching && schema.watched === 'must')
      throw new SchemaViolationError(schema.name, path, 'must be watched');
  }

  /** Checks every write op of a multi. */
  checkOps(ops: readonly Op[]): void {
    for (const item of ops) {
      if (item.type === 'create') this.checkCreate(item.path, item.mode, dataBytes(item.data));
      else if (item.type === 'setData') this.checkUpdate(item.path, dataBytes(item.data));
      else if (item.type === 'delete') this.checkDelete(item.path);
    }
  }

  #checkData(schema: Schema, path: string, data: Uint8Array | null): void {
    if (schema.validateData === undefined) return;
    const verdict = schema.validateData(path, data);
    if (verdict !== true) {
      throw new SchemaViolationError(
        schema.name,
        path,
        typeof verdict === 'string' ? verdict : 'data is not valid',
      );
    }
  }
}

function dataBytes(data: Uint8Array | string | null | undefined): Uint8Array | null {
  if (data === null || data === undefined) return null;
  return typeof data === 'string' ? new TextEncoder().encode(data) : data;
}

type Checked = Pick<
  ZooKeeperClient,
  | 'create'
  | 'create2'
  | 'setData'
  | 'delete'
  | 'multi'
  | 'getData'
  | 'exists'
  | 'getChildren'
  | 'getChildren2'
>;

/**
 * The client with every write and read checked by `schemaSet` before it is sent (Curator's
 * `CuratorFrameworkFactory.builder().schemaSet(...)`): create/create2 (mode and data), setData, delete,
 * multi (each op), and getData/exists/getChildren (watched or not). A refused call rejects with
 * {@link SchemaViolationError}; everything else is the client's own.
 */
export function schemaCheckedClient<C extends ZooKeeperClient>(client: C, schemaSet: SchemaSet): C {
  if (!(schemaSet instanceof SchemaSet))
    throw new InvalidModelArgumentError('schemaCheckedClient', 'expected a SchemaSet');
  const checks: { [K in keyof Checked]: (...args: Parameters<Checked[K]>) => void } = {
    create: (path, data, options) =>
      schemaSet.checkCreate(path, options?.mode ?? 'persistent', dataBytes(data)),
    create2: (path, data, options) =>
      schemaSet.checkCreate(path, options?.mode ?? 'persistent', dataBytes(data)),
    setData: (path, data) => schemaSet.checkUpdate(path, dataBytes(data)),
    delete: (path) => schemaSet.checkDelete(path),
    multi: (ops) => schemaSet.checkOps(ops),
    getData: (path, options) => schemaSet.checkWatch(path, options?.watch !== undefined),
    exists: (path, options) => schemaSet.checkWatch(path, options?.watch !== undefined),
    getChildren: (path, options) => schemaSet.checkWatch(path, options?.watch !== undefined),
    getChildren2: (path, options) => schemaSet.checkWatch(path, options?.watch !== undefined),
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const check = (checks as Record<PropertyKey, ((...args: unknown[]) => void) | undefined>)[property];
      if (check === undefined || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (...args: unknown[]) => {
        try {
          check(...args);
        } catch (error) {
          return Promise.reject(error);
        }
        return value.apply(target, args);
      };
    },
  });
}
