/**
 * ModeledFramework: typed reads and writes of the model at a spec's path (Curator's `ModeledFramework`).
 * Models are checked by the spec's schema (and a {@link SchemaSet} when given) and serialized before
 * anything is sent; reads deserialize and check, failing with a typed error naming the path.
 */
import {
  type ACL,
  type CallOptions,
  type CreateMode,
  isNodeExists,
  isNoNode,
  isRetryable,
  type Op,
  type OpResult,
  op,
  type Stat,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { CachedModeledFramework, type CachedModeledOptions } from './cached-modeled-framework.js';
import { InvalidModelArgumentError, UnresolvedPathError } from './errors.js';
import type { ModelSpec } from './model-spec.js';
import { isNodeName, type NodeNameValue } from './node-name.js';
import type { SchemaSet } from './schema-set.js';
import { VersionedModeledFramework } from './versioned-modeled-framework.js';
import type { AnyZPath, NamedParameterValues, PositionalParameterValues, ZPath } from './zpath.js';

/** A model with its node's path and Stat (Curator's `ZNode`). */
export interface ZNode<T> {
  readonly path: string;
  readonly stat: Stat;
  readonly model: T;
}

/** Options of {@link modeled}. */
export interface ModeledOptions {
  /** Checked before every write (and by `cached()` before its watch), with the schema's name in the error. */
  schemaSet?: SchemaSet;
  /** `children()` and `childrenAsZNodes()` of a missing node give `[]` instead of NoNode. Default false. */
  ignoreMissingNodesForChildren?: boolean;
}

/** Options of writes that take a version: `version` -1 (the default) is any. */
export type VersionOptions = CallOptions & { version?: number };

function versionOptions(arg: number | VersionOptions | undefined, operation: string): VersionOptions {
  const options = typeof arg === 'number' ? { version: arg } : (arg ?? {});
  if (typeof options !== 'object' || options === null) {
    throw new InvalidModelArgumentError(operation, 'expected a version number or an options object');
  }
  const version = options.version;
  if (version !== undefined && (!Number.isInteger(version) || version < -1 || version > 0x7fff_ffff)) {
    throw new InvalidModelArgumentError(operation, `version must be an integer from -1, got ${version}`);
  }
  return options;
}

function callOptions(options: CallOptions | undefined): CallOptions {
  return { signal: options?.signal, timeoutMs: options?.timeoutMs };
}

/** Typed access to the model at one (possibly parameterized) path. Immutable: path changes return new ones. */
export class ModeledFramework<T, N extends string[] = string[]> {
  readonly client: ZooKeeperClient;
  readonly spec: ModelSpec<T, N>;
  readonly options: Readonly<ModeledOptions>;

  /** @internal use {@link modeled} */
  constructor(client: ZooKeeperClient, spec: ModelSpec<T, N>, options: ModeledOptions = {}) {
    this.client = client;
    this.spec = spec;
    this.options = options;
  }

  /** The spec's path. */
  get path(): ZPath<N> {
    return this.spec.path;
  }

  // ---- paths ------------------------------------------------------------------------------------------

  /** The framework at another path (same spec otherwise). */
  withPath<M extends string[]>(path: ZPath<M>): ModeledFramework<T, M> {
    return new ModeledFramework(this.client, this.spec.withPath(path), this.options);
  }

  /** The framework at a child path (`{name}` adds a parameter). */
  child<const C extends NodeNameValue>(child: C) {
    return this.withPath(this.spec.path.child(child));
  }

  /** The framework at the parent path. */
  parent() {
    return this.withPath(this.spec.path.parent());
  }

  /** The framework at the path with its parameters resolved, by name or by position. */
  resolved(values: NamedParameterValues<N>): ModeledFramework<T, []>;
  resolved(...values: PositionalParameterValues<N>): ModeledFramework<T, []>;
  resolved(...values: unknown[]): ModeledFramework<T, []> {
    const resolve = this.spec.path.resolve as (...args: unknown[]) => ZPath<[]>;
    return this.withPath(resolve.apply(this.spec.path, values));
  }

  // ---- variants ---------------------------------------------------------------------------------------

  /** Reads give `{ model, version }`; writes are compare-and-set on that version. */
  versioned(): VersionedModeledFramework<T, N> {
    return new VersionedModeledFramework(this);
  }

  /**
   * Reads served from a cache of the spec's path (of its parent when only the last segment is a parameter).
   * Call `start()` before use and `close()` after.
   */
  cached(options?: CachedModeledOptions): CachedModeledFramework<T, N> {
    return new CachedModeledFramework(this, options);
  }

  // ---- writes -----------------------------------------------------------------------------------------

  /**
   * Creates the node with the model, or overwrites its data when it exists (set-data-if-exists, `version`
   * then applies). Parents are made as the spec says (containers by default). Resolves with the node's
   * path (with the sequence suffix for sequential modes). An unresolved path whose only parameter is the
   * last segment is resolved from the model's `nodeName()`, as Curator resolves it from the model.
   */
  async set(model: T, options?: number | VersionOptions): Promise<string> {
    const opts = versionOptions(options, 'set');
    const path = this.#pathForSet(model);
    const spec = this.spec;
    const bytes = await spec.encode(model, path);
    this.options.schemaSet?.checkCreate(path, spec.createMode, bytes);
    try {
      return await this.client.create(path, bytes, {
        ...callOptions(opts),
        mode: spec.createMode,
        acl: spec.acl,
        ttlMs: spec.ttlMs,
        createParents: spec.createOptions.createParents,
      });
    } catch (error) {
      if (!spec.createOptions.setDataIfExists || !isNodeExists(error)) throw error;
      await this.client.setData(path, bytes, { ...callOptions(opts), version: opts.version ?? -1 });
      return path;
    }
  }

  /** Replaces the node's model; `version` (default -1, any) must match. Resolves with the new Stat. */
  async update(model: T, options?: number | VersionOptions): Promise<Stat> {
    const opts = versionOptions(options, 'update');
    const path = this.#pathForSet(model);
    const bytes = await this.spec.encode(model, path);
    this.options.schemaSet?.checkUpdate(path, bytes);
    return this.client.setData(path, bytes, { ...callOptions(opts), version: opts.version ?? -1 });
  }

  /** Deletes the node (guaranteed by default, as Curator's); `version` (default -1, any) must match. */
  async delete(options?: number | VersionOptions): Promise<void> {
    const opts = versionOptions(options, 'delete');
    const path = this.#fullPath('delete');
    this.options.schemaSet?.checkDelete(path);
    const { guaranteed, deletingChildrenIfNeeded, quietly } = this.spec.deleteOptions;
    try {
      if (deletingChildrenIfNeeded) {
        for (const child of await this.client.getChildren(path, callOptions(opts))) {
          await this.client.deleteRecursive(
            path === '/' ? `/${child}` : `${path}/${child}`,
            callOptions(opts),
          );
        }
      }
      await this.#deleteNode(path, opts, guaranteed);
    } catch (error) {
      if (!(quietly && isNoNode(error))) throw error;
    }
  }

  /**
   * As Curator's guaranteed delete: a node missing at the first attempt is NoNode (unless `quietly`); only a
   * delete met by a connection problem is retried until the node is known gone.
   */
  async #deleteNode(path: string, opts: VersionOptions, guaranteed: boolean): Promise<void> {
    const options = { ...callOptions(opts), version: opts.version ?? -1 };
    try {
      await this.client.delete(path, options);
    } catch (error) {
      if (!guaranteed || !isRetryable(error)) throw error;
      await this.client.delete(path, { ...options, guaranteed: true });
    }
  }

  // ---- reads ------------------------------------------------------------------------------------------

  /** The node's model; NoNode when it does not exist, a typed error when its data is not a valid model. */
  async read(options?: CallOptions): Promise<T> {
    return (await this.readAsZNode(options)).model;
  }

  /** The node's model with its path and Stat. */
  async readAsZNode(options?: CallOptions): Promise<ZNode<T>> {
    const path = this.#fullPath('read');
    const { data, stat } = await this.client.getData(path, callOptions(options));
    return { path, stat, model: await this.spec.decode(data ?? new Uint8Array(0), path) };
  }

  /** The node's Stat, or null when it does not exist. */
  async checkExists(options?: CallOptions): Promise<Stat | null> {
    return this.client.exists(this.#fullPath('checkExists'), callOptions(options));
  }

  /** The paths of the node's children. */
  async children(options?: CallOptions): Promise<ZPath<[]>[]> {
    const fullPath = this.#fullPath('children');
    const path = this.spec.path as AnyZPath;
    let names: string[];
    try {
      names = await this.client.getChildren(fullPath, callOptions(options));
    } catch (error) {
      if (this.options.ignoreMissingNodesForChildren && isNoNode(error)) return [];
      throw error;
    }
    return names.sort().map((name) => path.childNamed(name));
  }

  /** The models of the node's children, with paths and Stats (children deleted meanwhile are left out). */
  async childrenAsZNodes(options?: CallOptions): Promise<ZNode<T>[]> {
    const children = await this.children(options);
    const nodes = await Promise.all(children.map((child) => this.withPath(child).#readIfExists(options)));
    return nodes.filter((node): node is ZNode<T> => node !== undefined);
  }

  /**
   * The models of the node and all its descendants that hold data (nodes with no data, such as the
   * containers made as parents, are left out, as Curator's cache leaves them out), sorted by path.
   */
  async list(options?: CallOptions): Promise<T[]> {
    return (await this.listAsZNodes(options)).map((node) => node.model);
  }

  /** {@link list} with paths and Stats. */
  async listAsZNodes(options?: CallOptions): Promise<ZNode<T>[]> {
    const root = this.#fullPath('list');
    const found: ZNode<T>[] = [];
    const visit = async (path: string): Promise<void> => {
      let result: Awaited<ReturnType<ZooKeeperClient['getData']>>;
      let children: string[];
      try {
        [result, children] = await Promise.all([
          this.client.getData(path, callOptions(options)),
          this.client.getChildren(path, callOptions(options)),
        ]);
      } catch (error) {
        if (isNoNode(error)) return; // deleted while we walked
        throw error;
      }
      if (result.data !== null && result.data.length > 0) {
        found.push({ path, stat: result.stat, model: await this.spec.decode(result.data, path) });
      }
      await Promise.all(children.map((name) => visit(path === '/' ? `/${name}` : `${path}/${name}`)));
    };
    await visit(root);
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  // ---- transactions -----------------------------------------------------------------------------------

  /** A create op of the model (for {@link inTransaction}); checked and serialized now. */
  createOp(model: T): Op {
    const path = this.#pathForSet(model);
    const bytes = this.spec.encodeSync(model, path);
    this.options.schemaSet?.checkCreate(path, this.spec.createMode, bytes);
    return op.create(path, bytes, this.#createOpOptions());
  }

  /** A setData op of the model; `version` -1 (default) is any. */
  updateOp(model: T, version = -1): Op {
    versionOptions(version, 'updateOp');
    const path = this.#pathForSet(model);
    const bytes = this.spec.encodeSync(model, path);
    this.options.schemaSet?.checkUpdate(path, bytes);
    return op.setData(path, bytes, version);
  }

  /** A delete op of the node; `version` -1 (default) is any. */
  deleteOp(version = -1): Op {
    versionOptions(version, 'deleteOp');
    const path = this.#fullPath('deleteOp');
    this.options.schemaSet?.checkDelete(path);
    return op.delete(path, version);
  }

  /** A check op: the transaction fails unless the node exists (with `version`, unless -1). */
  checkExistsOp(version = -1): Op {
    versionOptions(version, 'checkExistsOp');
    return op.check(this.#fullPath('checkExistsOp'), version);
  }

  /** Runs ops (of any frameworks, or `op.*`) as one multi: all or none. */
  inTransaction(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    return this.client.multi(ops, callOptions(options));
  }

  // ---- internals --------------------------------------------------------------------------------------

  #createOpOptions(): { mode: CreateMode; acl?: ACL[]; ttlMs?: number } {
    const options: { mode: CreateMode; acl?: ACL[]; ttlMs?: number } = { mode: this.spec.createMode };
    if (this.spec.acl !== undefined) options.acl = this.spec.acl;
    if (this.spec.ttlMs !== undefined) options.ttlMs = this.spec.ttlMs;
    return options;
  }

  async #readIfExists(options: CallOptions | undefined): Promise<ZNode<T> | undefined> {
    try {
      return await this.readAsZNode(options);
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  }

  /** The resolved path; throws UNRESOLVED_PATH before anything is sent. */
  #fullPath(operation: string): string {
    return this.spec.path.fullPath(operation);
  }

  /** The path to write `model` at: the spec's, or resolved from the model's own `nodeName()`. */
  #pathForSet(model: T): string {
    const path = this.spec.path as AnyZPath;
    if (path.isResolved) return path.fullPath();
    if (path.parameterNames.length === 1 && isNodeName(model)) {
      return (path.resolve as (...values: unknown[]) => ZPath<[]>)(model).fullPath();
    }
    throw new UnresolvedPathError(path.toString(), 'set');
  }
}

/** A framework for `spec`'s model over `client` (Curator's `ModeledFramework.wrap`). */
export function modeled<T, N extends string[]>(
  client: ZooKeeperClient,
  spec: ModelSpec<T, N>,
  options?: ModeledOptions,
): ModeledFramework<T, N> {
  if (typeof client !== 'object' || client === null)
    throw new InvalidModelArgumentError('modeled', 'client is required');
  if (typeof spec !== 'object' || spec === null || !('path' in spec)) {
    throw new InvalidModelArgumentError('modeled', 'spec must come from modelSpec()');
  }
  return new ModeledFramework(client, spec, options ?? {});
}
