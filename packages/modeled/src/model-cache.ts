/**
 * The models of a cached subtree (Curator's `ModeledCacheImpl`): a {@link CuratorCache} over the cache root,
 * each node's bytes turned into a model as it arrives. Nodes without data (parents, containers) are not
 * models. A node whose data fails deserialization or the schema is reported on `error` with its path and
 * left out; it never stops the cache. Events are applied in the cache's order, also when the schema
 * validates asynchronously.
 */
import { EventEmitter } from 'node:events';
import { type ChildData, CuratorCache, type CuratorCacheOptions } from '@zkwire/recipes';
import type { Stat, ZooKeeperClient } from '@zkwire/zk-wire-client';
import { IllegalModeledStateError } from './errors.js';
import { type ModelCacheEvent, ModelEventBuffer, type ModelEventsOptions } from './model-events.js';
import type { ModelSpec } from './model-spec.js';
import type { ZNode } from './modeled-framework.js';

/** Listener signatures of a cached framework (`cached.on(name, listener)`). */
export interface ModelCacheEvents<T> {
  created: [node: ZNode<T>];
  changed: [node: ZNode<T>, previous: ZNode<T> | undefined];
  deleted: [node: ZNode<T>];
  /** The initial load finished: reads answer from the cache from now on. */
  initialized: [];
  /** A node that is not a valid model (with its path), a cache failure, or a listener that threw. */
  error: [error: unknown];
}

/** The shared cache of a cached framework and its children. */
export class ModelCache<T> extends EventEmitter<ModelCacheEvents<T>> {
  readonly root: string;
  readonly #cache: CuratorCache;
  readonly #spec: ModelSpec<T, string[]>;
  readonly #client: ZooKeeperClient;
  readonly #entries = new Map<string, ZNode<T>>();
  readonly #buffers = new Set<ModelEventBuffer<T>>();
  #queue: Promise<void> = Promise.resolve();
  #queued = 0;
  #state: 'latent' | 'started' | 'closed' = 'latent';
  #initialized = false;
  readonly #initWaiters = new Set<{ resolve: () => void; reject: (error: unknown) => void }>();

  constructor(
    client: ZooKeeperClient,
    root: string,
    spec: ModelSpec<T, string[]>,
    options: Pick<CuratorCacheOptions, 'engine'> = {},
  ) {
    super();
    this.root = root;
    this.#client = client;
    this.#spec = spec;
    this.#cache = new CuratorCache(client, root, { keepData: false, ...options });
    this.#cache.on('created', (data) => this.#enqueue(() => this.#put(data)));
    this.#cache.on('changed', (_old, data) => this.#enqueue(() => this.#put(data)));
    this.#cache.on('deleted', (old) => this.#enqueue(() => this.#remove(old.path)));
    this.#cache.on('initialized', () => this.#enqueue(() => this.#onInitialized()));
    this.#cache.on('error', (error) => this.#report(error));
  }

  get isInitialized(): boolean {
    return this.#initialized;
  }

  /** Makes the root (as containers, when the spec makes parents) and starts the cache. */
  async start(): Promise<void> {
    if (this.#state !== 'latent')
      throw new IllegalModeledStateError('the cached framework was already started');
    this.#state = 'started';
    const parents = this.#spec.createOptions.createParents;
    if (parents !== false && this.root !== '/') await this.#client.ensurePath(this.root, parents);
    await this.#cache.start();
  }

  /** Stops the cache, ends every `events()` iteration and fails reads still waiting. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    for (const buffer of [...this.#buffers]) buffer.end();
    const closed = new IllegalModeledStateError(`the cache of ${this.root} was closed`);
    for (const waiter of [...this.#initWaiters]) waiter.reject(closed);
    this.#initWaiters.clear();
    await this.#cache.close();
    this.#entries.clear();
  }

  /** Resolves once the initial load is applied (Curator 5.9: reads wait for it). */
  initialized(): Promise<void> {
    if (this.#initialized) return Promise.resolve();
    if (this.#state === 'closed')
      return Promise.reject(new IllegalModeledStateError(`the cache of ${this.root} was closed`));
    if (this.#state === 'latent') {
      return Promise.reject(new IllegalModeledStateError('start() the cached framework before reading'));
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          this.#initWaiters.delete(waiter);
          resolve();
        },
        reject: (error: unknown) => {
          this.#initWaiters.delete(waiter);
          reject(error);
        },
      };
      this.#initWaiters.add(waiter);
    });
  }

  get(path: string): ZNode<T> | undefined {
    return this.#entries.get(path);
  }

  /** Every model at or below `path`, sorted by path. */
  below(path: string): ZNode<T>[] {
    const prefix = path === '/' ? '/' : `${path}/`;
    return [...this.#entries.values()]
      .filter((node) => node.path === path || node.path.startsWith(prefix))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The models of the direct children of `path`, sorted by path. */
  childrenOf(path: string): ZNode<T>[] {
    const prefix = path === '/' ? '/' : `${path}/`;
    return this.below(path).filter(
      (node) => node.path !== path && !node.path.slice(prefix.length).includes('/'),
    );
  }

  events(options?: ModelEventsOptions): AsyncIterableIterator<ModelCacheEvent<T>> {
    const signal = options?.signal;
    const onAbort = () => void buffer.return();
    const buffer: ModelEventBuffer<T> = new ModelEventBuffer<T>(options, () => {
      this.#buffers.delete(buffer);
      signal?.removeEventListener('abort', onAbort);
    });
    if (this.#state === 'closed' || signal?.aborted) {
      buffer.end();
      return buffer;
    }
    this.#buffers.add(buffer);
    signal?.addEventListener('abort', onAbort, { once: true });
    return buffer;
  }

  /** Runs `step` after the steps before it (now, when none is pending and it completes synchronously). */
  #enqueue(step: () => void | Promise<void>): void {
    const run = () => {
      try {
        return step();
      } catch (error) {
        this.#report(error);
      }
    };
    if (this.#queued === 0) {
      const result = run();
      if (!(result instanceof Promise)) return;
      this.#track(result);
      return;
    }
    this.#track(this.#queue.then(run));
  }

  #track(step: Promise<void>): void {
    this.#queued++;
    this.#queue = step
      .catch((error: unknown) => this.#report(error))
      .finally(() => {
        this.#queued--;
      });
  }

  #put(data: ChildData): void | Promise<void> {
    if (this.#state === 'closed') return;
    const path = data.path;
    if (data.data === null || data.data.length === 0) {
      // A node without data is not a model (a parent made as a container); one that lost its data leaves.
      if (this.#entries.has(path)) this.#remove(path);
      return;
    }
    const stat = data.stat as Stat;
    const apply = (model: T) => {
      if (this.#state === 'closed') return;
      const previous = this.#entries.get(path);
      const node: ZNode<T> = { path, stat, model };
      this.#entries.set(path, node);
      if (previous === undefined) this.#publish('created', node, undefined);
      else this.#publish('changed', node, previous);
    };
    const failed = (error: unknown) => {
      // The node is no longer a valid model: what was cached for it goes, and the error says where.
      if (this.#entries.has(path)) this.#remove(path);
      this.#report(error);
    };
    let decoded: T | Promise<T>;
    try {
      decoded = this.#spec.decodeNow(data.data, path);
    } catch (error) {
      failed(error);
      return;
    }
    if (decoded instanceof Promise) return decoded.then(apply, failed);
    apply(decoded);
  }

  #remove(path: string): void {
    const previous = this.#entries.get(path);
    if (previous === undefined) return;
    this.#entries.delete(path);
    this.#publish('deleted', previous, undefined);
  }

  #publish(type: ModelCacheEvent<T>['type'], node: ZNode<T>, previous: ZNode<T> | undefined): void {
    this.#emitSafely(() => {
      if (type === 'changed') this.emit('changed', node, previous);
      else this.emit(type, node);
    });
    const event: ModelCacheEvent<T> = { type, path: node.path, stat: node.stat, model: node.model };
    for (const buffer of this.#buffers) buffer.push(event);
  }

  #onInitialized(): void {
    this.#initialized = true;
    for (const waiter of [...this.#initWaiters]) waiter.resolve();
    this.#emitSafely(() => this.emit('initialized'));
  }

  #emitSafely(emit: () => void): void {
    try {
      emit();
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    // With no listener, EventEmitter would throw the error out of the cache's own callback.
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }
}
