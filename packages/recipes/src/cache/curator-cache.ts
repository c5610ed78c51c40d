/**
 * CuratorCache: a live local copy of a node and (optionally) its subtree (Curator's
 * `org.apache.curator.framework.recipes.cache.CuratorCache`, 5.x). Two engines keep it current with the
 * same public behaviour: one persistent recursive watch on servers 3.6+, one-shot watches on 3.5 (chosen
 * from the server by default, or by the `engine` option). The cache survives reconnects and session
 * expiries: it re-reads the tree and reports only what really differs.
 */
import { EventEmitter } from 'node:events';
import { Deadline, type WaitOptions } from '../internal-common/deadline.js';
import { IllegalRecipeStateError, InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { onClientState, type RecipeConnectionState } from '../internal-common/zk-client.js';
import { isRetryable } from '../internal-common/zk-errors.js';
import { type CacheClient, isUnsupportedByServer } from './cache-client.js';
import { CacheCore } from './cache-core.js';
import type { CacheEngineDriver } from './cache-engine.js';
import {
  type CacheEvent,
  type CacheEventsOptions,
  type CuratorCacheEvents,
  EventBuffer,
} from './cache-events.js';
import { type CuratorCacheOptions, resolveCacheOptions, validateCachePath } from './cache-options.js';
import type { ChildData } from './cache-types.js';
import { OneShotWatchEngine } from './one-shot-watch-engine.js';
import { PersistentWatchEngine } from './persistent-watch-engine.js';

/** True when the server version `actual` is older than 3.6.0 (no persistent watches). */
function olderThan36(actual: string | undefined): boolean {
  if (actual === undefined) return false;
  const [major = 0, minor = 0] = actual.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return major < 3 || (major === 3 && minor < 6);
}

/** A local copy of a ZooKeeper subtree, kept current; events as listeners and as an async iterable. */
export class CuratorCache
  extends EventEmitter<CuratorCacheEvents>
  implements AsyncDisposable, Iterable<ChildData>
{
  /** The cached root. */
  readonly path: string;
  readonly #core: CacheCore;
  #engine: CacheEngineDriver | undefined;
  #state: 'latent' | 'starting' | 'started' | 'closed' = 'latent';
  #stopStates: (() => void) | undefined;
  #sessionLost = false;
  #initialized = false;
  readonly #buffers = new Set<EventBuffer>();
  readonly #initWaiters = new Set<{ done: () => void; fail: (error: unknown) => void }>();
  /** Calls our listeners (one that throws changes nothing here) and reports failed background reads. */
  readonly #reporter: Reporter<CuratorCacheEvents>;

  /**
   * @param client a connected (or connecting) client
   * @param path the root to cache; it need not exist
   * @param options single node, data or Stat only, depth, engine (checked here, before anything is sent)
   */
  constructor(client: CacheClient, path: string, options?: CuratorCacheOptions) {
    super();
    this.path = validateCachePath(path);
    this.#reporter = new Reporter(this, client, `CuratorCache ${this.path}`);
    this.#core = new CacheCore(client, this.path, resolveCacheOptions(options), {
      event: (event) => this.#publish(event),
      initialized: () => this.#onInitialized(),
      error: (error) => this.#reporter.background(error, 'a background read failed'),
    });
  }

  /**
   * Places the watch and starts the initial load (it does not wait for the load: see
   * {@link awaitInitialized}). Fails with the server's error if the engine cannot run there.
   */
  async start(): Promise<void> {
    if (this.#state !== 'latent') throw new IllegalRecipeStateError('CuratorCache was already started');
    this.#state = 'starting';
    const core = this.#core;
    this.#stopStates = onClientState(core.client, (state) => this.#onState(state));
    const wanted = core.options.engine;
    const oneShot =
      wanted === 'one-shot-watches' || (wanted === 'auto' && olderThan36(core.client.serverVersion));
    this.#engine = oneShot ? new OneShotWatchEngine(core) : new PersistentWatchEngine(core);
    try {
      await this.#engine.start();
    } catch (error) {
      if (wanted === 'auto' && isUnsupportedByServer(error)) {
        this.#engine = new OneShotWatchEngine(core); // a 3.5 server: same behaviour with one-shot watches
        await this.#engine.start();
      } else if (!isRetryable(error)) {
        await this.close();
        throw error;
      } // else: disconnected; the watch is placed when the client connects again
    }
    if (this.#state === 'starting') this.#state = 'started';
  }

  /** The engine in use once started: `'persistent-watch'` or `'one-shot-watches'`. */
  get engine(): CacheEngineDriver['kind'] | undefined {
    return this.#engine?.kind;
  }

  /** True once the initial load finished. */
  get isInitialized(): boolean {
    return this.#initialized;
  }

  /**
   * Waits for the initial load: true once it finished, false when `timeoutMs` passed first. Rejects with
   * the signal's reason on abort, and with ILLEGAL_STATE if the cache is closed first.
   */
  awaitInitialized(options?: WaitOptions): Promise<boolean> {
    let deadline: Deadline;
    try {
      deadline = Deadline.of(options); // bad options reject before anything else
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#initialized) return Promise.resolve(true);
    if (this.#state === 'closed') return Promise.reject(this.#closedError());
    const signal = deadline.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<boolean>((resolve, reject) => {
      const remaining = deadline.remainingMs();
      const finish = () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#initWaiters.delete(waiter);
      };
      const waiter = {
        done: () => {
          finish();
          resolve(true);
        },
        fail: (error: unknown) => {
          finish();
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(signal?.reason);
      const timer = Number.isFinite(remaining)
        ? setTimeout(() => {
            finish();
            resolve(false);
          }, remaining)
        : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#initWaiters.add(waiter);
    });
  }

  /** The cached node at `path` (a full path), or undefined. */
  get(path: string): ChildData | undefined {
    if (typeof path !== 'string') throw new InvalidRecipeArgumentError('path', 'must be a string');
    return this.#core.tree.get(path);
  }

  /** The cached direct children of `path`, sorted by path (Curator's `parentPathFilter`). */
  children(path: string): ChildData[] {
    if (typeof path !== 'string') throw new InvalidRecipeArgumentError('path', 'must be a string');
    return this.#core.tree.children(path);
  }

  /** Number of cached nodes (the root included when it exists). */
  get size(): number {
    return this.#core.tree.size;
  }

  /** Every cached node at this moment: a snapshot, unaffected by changes made while it is iterated. */
  entries(): ChildData[] {
    return this.#core.tree.snapshot();
  }

  /** Iterates a snapshot (see {@link entries}). */
  [Symbol.iterator](): Iterator<ChildData> {
    return this.entries()[Symbol.iterator]();
  }

  /**
   * The cache's events from now on, as an async iterable with a bounded buffer: a consumer more than
   * `bufferSize` events behind gets `CacheEventsOverflowError` after the buffered ones (see cache-events.ts).
   * Ends when the cache closes or `signal` aborts; breaking out of the loop unsubscribes.
   */
  events(options?: CacheEventsOptions): AsyncIterableIterator<CacheEvent> {
    const capacity = EventBuffer.capacityOf(options);
    const signal = options?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new InvalidRecipeArgumentError('signal', 'must be an AbortSignal');
    }
    const onAbort = () => void buffer.return();
    const buffer: EventBuffer = new EventBuffer(capacity, () => {
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

  /**
   * Stops the cache: removes its watch(es) (removeWatches; locally if disconnected), its connection
   * listener, ends every `events()` iteration and clears the local copy (unless `clearOnClose: false`).
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#core.closed = true;
    this.#stopStates?.();
    this.#stopStates = undefined;
    for (const buffer of [...this.#buffers]) buffer.end();
    this.#buffers.clear();
    for (const waiter of [...this.#initWaiters]) waiter.fail(this.#closedError());
    await this.#engine?.close();
    if (this.#core.options.clearOnClose) this.#core.tree.clear();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #onState(state: RecipeConnectionState): void {
    if (state === 'lost') {
      this.#sessionLost = true;
    } else if (state === 'connected' || state === 'reconnected' || state === 'read-only') {
      const lost = this.#sessionLost;
      this.#sessionLost = false;
      this.#engine?.resync(lost);
    }
  }

  #publish(event: CacheEvent): void {
    if (event.type === 'created') this.#reporter.emit('created', event.data);
    else if (event.type === 'changed') this.#reporter.emit('changed', event.oldData, event.data);
    else if (event.type === 'deleted') this.#reporter.emit('deleted', event.oldData);
    this.#reporter.emit('event', event);
    for (const buffer of this.#buffers) buffer.push(event);
  }

  #onInitialized(): void {
    this.#initialized = true;
    for (const waiter of [...this.#initWaiters]) waiter.done();
    this.#reporter.emit('initialized');
    for (const buffer of this.#buffers) buffer.push({ type: 'initialized' });
  }

  #closedError(): IllegalRecipeStateError {
    return new IllegalRecipeStateError(`CuratorCache ${this.path} was closed`);
  }
}

/**
 * Wires a thin view over `cache` (NodeCache, PathChildrenCache) to it: the cache's events go to `onEvent`, its
 * `initialized` and its failures to the view's listeners through the view's `reporter`.
 */
export function relayToView(
  cache: CuratorCache,
  reporter: { emit(event: 'initialized'): void; background(error: unknown, what: string): void },
  onEvent: (event: CacheEvent) => void,
): void {
  cache.on('event', onEvent);
  cache.on('initialized', () => reporter.emit('initialized'));
  // The inner cache's listeners are only ours, which cannot throw: what it reports is background work.
  cache.on('error', (error) => reporter.background(error, 'a background read failed'));
}
