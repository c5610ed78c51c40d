/**
 * ModelSpec: what a model is and where it lives (Curator's `ModelSpec`): a path (possibly with parameters),
 * a serializer, an optional Standard Schema, and how its nodes are created and deleted. Curator's defaults:
 * parents made as containers, set-data-if-exists on create, guaranteed delete.
 */
import type { ACL, CreateMode } from '@zkwire/zk-wire-client';
import {
  InvalidModelArgumentError,
  ModelDeserializationError,
  ModelSerializationError,
  ModelValidationError,
} from './errors.js';
import type { NodeNameValue } from './node-name.js';
import { jsonSerializer, type ModelSerializer } from './serializer.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import {
  type AnyZPath,
  type NamedParameterValues,
  type PathParameters,
  type PositionalParameterValues,
  ZPath,
} from './zpath.js';

/** How a model's node is created (Curator's `CreateOption`s that apply here). */
export interface ModelCreateOptions {
  /**
   * Make missing parents: `'container'` (Curator's `createParentsAsContainers`, the default), `'persistent'`
   * (`createParentsIfNeeded`) or `false`.
   */
  createParents?: 'container' | 'persistent' | false;
  /** `set()` on an existing node overwrites its data (Curator's `setDataIfExists`). Default true. */
  setDataIfExists?: boolean;
}

/** How a model's node is deleted (Curator's `DeleteOption`s). */
export interface ModelDeleteOptions {
  /** Retry a delete met by connection loss until the node is known gone (Curator's `guaranteed`). Default true. */
  guaranteed?: boolean;
  /** Delete the node's children first (`deletingChildrenIfNeeded`). Default false. */
  deletingChildrenIfNeeded?: boolean;
  /** A node already gone is not an error (`quietly`). Default false. */
  quietly?: boolean;
}

/** Options of {@link modelSpec}. */
export interface ModelSpecOptions<Path> {
  /** The model's path: a template such as `'/tenants/{id}/quota'` or a {@link ZPath}. */
  path: Path;
  /** Create mode of the model's nodes. Default `'persistent'`. */
  createMode?: CreateMode;
  /** ACL of created nodes. Default: the client's default ACL (open unless configured). */
  acl?: ACL[];
  /** TTL of the TTL create modes, in ms. */
  ttlMs?: number;
  createOptions?: ModelCreateOptions;
  deleteOptions?: ModelDeleteOptions;
}

type ParametersOf<Path> = Path extends string
  ? PathParameters<Path>
  : Path extends ZPath<infer N>
    ? N
    : string[];

const CREATE_MODES = new Set<unknown>([
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'persistent-ttl',
  'persistent-sequential-ttl',
]);

interface SpecParts<T> {
  serializer: ModelSerializer<unknown>;
  schema: StandardSchemaV1<unknown, T> | undefined;
  createMode: CreateMode;
  acl: ACL[] | undefined;
  ttlMs: number | undefined;
  createOptions: Required<ModelCreateOptions>;
  deleteOptions: Required<ModelDeleteOptions>;
}

/** A model's path, serializer, schema and create/delete options; immutable. */
export class ModelSpec<T, N extends string[] = string[]> {
  readonly path: ZPath<N>;
  readonly #parts: SpecParts<T>;

  /** @internal use {@link modelSpec} */
  constructor(path: ZPath<N>, parts: SpecParts<T>) {
    this.path = path;
    this.#parts = parts;
  }

  get serializer(): ModelSerializer<unknown> {
    return this.#parts.serializer;
  }
  get schema(): StandardSchemaV1<unknown, T> | undefined {
    return this.#parts.schema;
  }
  get createMode(): CreateMode {
    return this.#parts.createMode;
  }
  get acl(): ACL[] | undefined {
    return this.#parts.acl;
  }
  get ttlMs(): number | undefined {
    return this.#parts.ttlMs;
  }
  get createOptions(): Readonly<Required<ModelCreateOptions>> {
    return this.#parts.createOptions;
  }
  get deleteOptions(): Readonly<Required<ModelDeleteOptions>> {
    return this.#parts.deleteOptions;
  }

  /** The same spec at another path. */
  withPath<M extends string[]>(path: ZPath<M>): ModelSpec<T, M> {
    if (!(path instanceof ZPath)) throw new InvalidModelArgumentError('withPath', 'expected a ZPath');
    return new ModelSpec(path, this.#parts);
  }

  /** The same spec at a child path (see {@link ZPath.child}). */
  child<const C extends NodeNameValue>(child: C) {
    return this.withPath(this.path.child(child));
  }

  /** The same spec at the parent path. */
  parent() {
    return this.withPath(this.path.parent());
  }

  /** The same spec at the path with its parameters resolved (see {@link ZPath.resolve}). */
  resolved(values: NamedParameterValues<N>): ModelSpec<T, []>;
  resolved(...values: PositionalParameterValues<N>): ModelSpec<T, []>;
  resolved(...values: unknown[]): ModelSpec<T, []> {
    return this.withPath((this.path.resolve as (...args: unknown[]) => ZPath<[]>)(...values));
  }

  /**
   * Checks a model with the schema, then serializes it; nothing is sent before this. Throws
   * ModelValidationError or ModelSerializationError naming `path`.
   */
  async encode(model: T, path: string): Promise<Uint8Array> {
    const schema = this.#parts.schema;
    if (schema !== undefined) {
      const result = await schema['~standard'].validate(model);
      if (result.issues) throw new ModelValidationError(path, 'write', result.issues);
    }
    return this.#serialize(model, path);
  }

  /**
   * {@link encode} for transaction ops, which are built synchronously: a schema that validates
   * asynchronously is refused with INVALID_ARGUMENT.
   */
  encodeSync(model: T, path: string): Uint8Array {
    const schema = this.#parts.schema;
    if (schema !== undefined) {
      const result = schema['~standard'].validate(model);
      if (result instanceof Promise) {
        throw new InvalidModelArgumentError(
          path,
          'the schema validates asynchronously; transaction ops need a synchronous schema',
        );
      }
      if (result.issues) throw new ModelValidationError(path, 'write', result.issues);
    }
    return this.#serialize(model, path);
  }

  /** A node's bytes to a model: deserialized, then checked by the schema (whose output is the model). */
  async decode(bytes: Uint8Array, path: string): Promise<T> {
    const value = this.#deserialize(bytes, path);
    const schema = this.#parts.schema;
    if (schema === undefined) return value as T;
    const result = await schema['~standard'].validate(value);
    if (result.issues) throw new ModelValidationError(path, 'read', result.issues);
    return result.value;
  }

  /** {@link decode} without awaiting a synchronous schema (the cache's events are delivered in order). */
  decodeNow(bytes: Uint8Array, path: string): T | Promise<T> {
    const value = this.#deserialize(bytes, path);
    const schema = this.#parts.schema;
    if (schema === undefined) return value as T;
    const result = schema['~standard'].validate(value);
    const check = (outcome: StandardSchemaV1.Result<T>): T => {
      if (outcome.issues) throw new ModelValidationError(path, 'read', outcome.issues);
      return outcome.value;
    };
    return result instanceof Promise ? result.then(check) : check(result);
  }

  #serialize(model: T, path: string): Uint8Array {
    let bytes: unknown;
    try {
      bytes = this.#parts.serializer.serialize(model);
    } catch (error) {
      throw new ModelSerializationError(path, error);
    }
    if (!(bytes instanceof Uint8Array)) {
      throw new ModelSerializationError(path, new TypeError('serialize() must return a Uint8Array'));
    }
    return bytes;
  }

  #deserialize(bytes: Uint8Array, path: string): unknown {
    try {
      return this.#parts.serializer.deserialize(bytes);
    } catch (error) {
      throw new ModelDeserializationError(path, bytes, error);
    }
  }
}

/**
 * A model spec. The model type comes from `schema` (any Standard Schema: zod, valibot, arktype), else from
 * `serializer`, else it is `unknown`; the path's parameter names come from a literal template.
 *
 * ```ts no-check
 * const quota = modelSpec({ path: '/tenants/{id}/quota', schema: z.object({ max: z.number() }) });
 * ```
 */
export function modelSpec<const Path extends string | AnyZPath, S extends StandardSchemaV1>(
  options: ModelSpecOptions<Path> & { schema: S; serializer?: ModelSerializer<unknown> },
): ModelSpec<StandardSchemaV1.InferOutput<S>, ParametersOf<Path>>;
export function modelSpec<const Path extends string | AnyZPath, T>(
  options: ModelSpecOptions<Path> & { serializer: ModelSerializer<T>; schema?: undefined },
): ModelSpec<T, ParametersOf<Path>>;
export function modelSpec<const Path extends string | AnyZPath>(
  options: ModelSpecOptions<Path> & { schema?: undefined; serializer?: undefined },
): ModelSpec<unknown, ParametersOf<Path>>;
export function modelSpec(
  options: ModelSpecOptions<string | AnyZPath> & {
    schema?: StandardSchemaV1;
    serializer?: ModelSerializer<unknown>;
  },
): ModelSpec<unknown, string[]> {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidModelArgumentError('modelSpec', 'options must be an object');
  }
  const path = options.path instanceof ZPath ? options.path : ZPath.parse(options.path as string);
  const { schema, serializer = jsonSerializer(), createMode = 'persistent', acl, ttlMs } = options;
  if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function') {
    throw new InvalidModelArgumentError(
      'modelSpec',
      'schema must be a Standard Schema (has ~standard.validate)',
    );
  }
  if (typeof serializer?.serialize !== 'function' || typeof serializer.deserialize !== 'function') {
    throw new InvalidModelArgumentError('modelSpec', 'serializer must have serialize() and deserialize()');
  }
  if (!CREATE_MODES.has(createMode)) {
    throw new InvalidModelArgumentError('modelSpec', `unknown createMode ${JSON.stringify(createMode)}`);
  }
  const isTtl = createMode === 'persistent-ttl' || createMode === 'persistent-sequential-ttl';
  if (isTtl !== (ttlMs !== undefined)) {
    throw new InvalidModelArgumentError(
      'modelSpec',
      isTtl ? `createMode ${createMode} needs ttlMs` : 'ttlMs needs a TTL createMode',
    );
  }
  if (acl !== undefined && !Array.isArray(acl))
    throw new InvalidModelArgumentError('modelSpec', 'acl must be an array');
  const parents = options.createOptions?.createParents ?? 'container';
  if (parents !== 'container' && parents !== 'persistent' && parents !== false) {
    throw new InvalidModelArgumentError(
      'modelSpec',
      `createParents must be 'container', 'persistent' or false`,
    );
  }
  return new ModelSpec(path, {
    serializer,
    schema,
    createMode,
    acl,
    ttlMs,
    createOptions: {
      createParents: parents,
      setDataIfExists: options.createOptions?.setDataIfExists ?? true,
    },
    deleteOptions: {
      guaranteed: options.deleteOptions?.guaranteed ?? true,
      deletingChildrenIfNeeded: options.deleteOptions?.deletingChildrenIfNeeded ?? false,
      quietly: options.deleteOptions?.quietly ?? false,
    },
  });
}
