/**
 * CachedModeledFramework (Curator's): reads served from a cache of the models under the spec's path (its
 * parent's children when only the last segment is a parameter: `/tenants/{id}` caches `/tenants`). Reads
 * wait for the initial load (Curator 5.9's fix), so a read right after `start()` sees what the server held.
 * Writes go to the server as the plain framework's do; the cache sees them through its watch.
 */
import type { CallOptions, Op, OpResult, Stat } from '@zkwire/zk-wire-client';
import { errorFromCode } from '@zkwire/zk-wire-client';
import { IllegalModeledStateError, UnresolvedPathError } from './errors.js';
import { ModelCache, type ModelCacheEvents } from './model-cache.js';
import type { ModelCacheEvent, ModelEventsOptions } from './model-events.js';
import type { ModeledFramework, VersionOptions, ZNode } from './modeled-framework.js';
import type { NodeNameValue } from './node-name.js';
import { VersionedModeledFramework } from './versioned-modeled-framework.js';
import type { AnyZPath, NamedParameterValues, PositionalParameterValues, ZPath } from './zpath.js';

/** Options of `framework.cached()`. */
export interface CachedModeledOptions {
  /** The CuratorCache engine (default 'auto': a persistent recursive watch on 3.6+ servers). */
  engine?: 'auto' | 'persistent-watch' | 'one-shot-watches';
}

/** The cache root of a path: the path, or its parent when only the last segment is a parameter. */
function cacheRoot(path: AnyZPath): string {
  if (!path.isResolved && !path.isRoot && path.parent().isResolved) return path.parent().fullPath();
  return path.fullPath('cached');
}

type Listener<T, K extends keyof ModelCacheEvents<T>> = (...args: ModelCacheEvents<T>[K]) => void;

/** A {@link ModeledFramework} whose reads come from a cache; `start()` it before use, `close()` after. */
export class CachedModeledFramework<T, N extends string[] = string[]> implements AsyncDisposable {
  readonly framework: ModeledFramework<T, N>;
  readonly #cache: ModelCache<T>;

  /** @internal use `framework.cached()` */
  constructor(framework: ModeledFramework<T, N>, options?: CachedModeledOptions, cache?: ModelCache<T>) {
    this.framework = framework;
    if (cache !== undefined) {
      this.#cache = cache;
    } else {
      const root = cacheRoot(framework.spec.path as AnyZPath);
      const checks = framework.options.schemaSet;
      checks?.checkWatch(root, true);
      const engine = options?.engine === undefined ? {} : { engine: options.engine };
      this.#cache = new ModelCache(framework.client, root, framework.spec as never, engine);
    }
  }

  /** The cached subtree's root. */
  get cacheRoot(): string {
    return this.#cache.root;
  }

  /** True once the initial load has been applied. */
  get isInitialized(): boolean {
    return this.#cache.isInitialized;
  }

  /** Makes the root (as the spec makes parents) and starts the cache; reads wait for its initial load. */
  start(): Promise<void> {
    return this.#cache.start();
  }

  /** Stops the cache (shared with the frameworks made by `child`/`withPath`/`resolved`). */
  close(): Promise<void> {
    return this.#cache.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Resolves once the initial load is applied. */
  initialized(): Promise<void> {
    return this.#cache.initialized();
  }

  /** Adds a listener: `created`, `changed`, `deleted` (with the model), `initialized`, `error`. */
  on<K extends keyof ModelCacheEvents<T>>(event: K, listener: Listener<T, K>): this {
    (this.#cache.on as (event: K, listener: Listener<T, K>) => unknown)(event, listener);
    return this;
  }

  /** Removes a listener. */
  off<K extends keyof ModelCacheEvents<T>>(event: K, listener: Listener<T, K>): this {
    (this.#cache.off as (event: K, listener: Listener<T, K>) => unknown)(event, listener);
    return this;
  }

  /** The cache's model events from now on, as an async iterable with a bounded buffer. */
  events(options?: ModelEventsOptions): AsyncIterableIterator<ModelCacheEvent<T>> {
    return this.#cache.events(options);
  }

  // ---- paths (sharing the cache) ----------------------------------------------------------------------

  withPath<M extends string[]>(path: ZPath<M>): CachedModeledFramework<T, M> {
    return new CachedModeledFramework(this.framework.withPath(path), undefined, this.#cache);
  }

  child<const C extends NodeNameValue>(child: C) {
    return this.withPath(this.framework.spec.path.child(child));
  }

  resolved(values: NamedParameterValues<N>): CachedModeledFramework<T, []>;
  resolved(...values: PositionalParameterValues<N>): CachedModeledFramework<T, []>;
  resolved(...values: unknown[]): CachedModeledFramework<T, []> {
    const resolve = this.framework.resolved as (...args: unknown[]) => ModeledFramework<T, []>;
    return new CachedModeledFramework(resolve.apply(this.framework, values), undefined, this.#cache);
  }

  /** Reads from the cache; writes compare-and-set on the version read. */
  versioned(): VersionedModeledFramework<T, N> {
    return new VersionedModeledFramework(this);
  }

  // ---- reads from the cache ---------------------------------------------------------------------------

  /**
   * The cached model; NoNode when the cache holds none at the path. Once the cache is loaded a read awaits
   * nothing, and its promise is the only one it makes.
   */
  async read(): Promise<T> {
    const path = this.#fullPath('read');
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cachedNode(path).model;
  }

  /** The cached model with its path and Stat. */
  async readAsZNode(): Promise<ZNode<T>> {
    const path = this.#fullPath('read');
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cachedNode(path);
  }

  /** The cached model, or the server's when the cache holds none (Curator's `readThrough`). */
  async readThrough(options?: CallOptions): Promise<T> {
    return (await this.readThroughAsZNode(options)).model;
  }

  async readThroughAsZNode(options?: CallOptions): Promise<ZNode<T>> {
    const path = this.#fullPath('readThrough');
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cache.get(path) ?? this.framework.readAsZNode(options);
  }

  /** The cached Stat, or null. */
  async checkExists(): Promise<Stat | null> {
    const path = this.#fullPath('checkExists');
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cache.get(path)?.stat ?? null;
  }

  /** The paths of the cached direct children that hold models. */
  async children(): Promise<ZPath<[]>[]> {
    const path = this.framework.spec.path as AnyZPath;
    return (await this.childrenAsZNodes()).map((node) =>
      path.childNamed(node.path.slice(node.path.lastIndexOf('/') + 1)),
    );
  }

  /** The cached models of the direct children. */
  async childrenAsZNodes(): Promise<ZNode<T>[]> {
    const path = this.#fullPath('children');
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cache.childrenOf(path);
  }

  /**
   * Every cached model at or below the path (Curator's `list()`); for a parameterized last segment, all
   * the models of the cache root's subtree.
   */
  async list(): Promise<T[]> {
    return (await this.listAsZNodes()).map((node) => node.model);
  }

  async listAsZNodes(): Promise<ZNode<T>[]> {
    const path = this.framework.spec.path as AnyZPath;
    const base = path.isResolved ? path.fullPath() : this.#cache.root;
    if (!this.#cache.isInitialized) await this.#cache.initialized();
    return this.#cache.below(base);
  }

  // ---- writes (to the server) -------------------------------------------------------------------------

  set(model: T, options?: number | VersionOptions): Promise<string> {
    return this.framework.set(model, options);
  }
  update(model: T, options?: number | VersionOptions): Promise<Stat> {
    return this.framework.update(model, options);
  }
  delete(options?: number | VersionOptions): Promise<void> {
    return this.framework.delete(options);
  }
  updateOp(model: T, version = -1): Op {
    return this.framework.updateOp(model, version);
  }
  createOp(model: T): Op {
    return this.framework.createOp(model);
  }
  deleteOp(version = -1): Op {
    return this.framework.deleteOp(version);
  }
  checkExistsOp(version = -1): Op {
    return this.framework.checkExistsOp(version);
  }
  inTransaction(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    return this.framework.inTransaction(ops, options);
  }

  /** Not available: call `parent()` on the framework before `cached()` (as Curator). */
  parent(): never {
    throw new IllegalModeledStateError('parent() of a cached framework: call parent() before cached()');
  }

  /** The node the cache holds at `path`; NoNode when it holds none. */
  #cachedNode(path: string): ZNode<T> {
    const node = this.#cache.get(path);
    if (node === undefined) throw errorFromCode(-101, { operation: 'read', path });
    return node;
  }

  #fullPath(operation: string): string {
    const path = this.framework.spec.path;
    if (!path.isResolved) throw new UnresolvedPathError(path.toString(), operation);
    return path.fullPath();
  }
}
