/**
 * Curator's ServiceCache: the live instances of one service, kept by one-shot watches that each read arms
 * itself (a child watch on the service node, a data watch on each instance node), so nothing can change
 * unseen between a read and its watch. The initial load sends the listing and then every instance read at
 * once. Watches survive reconnects in the client (the server reports what changed meanwhile); after a session
 * expiry the whole service is read again, and listeners hear of it only if something really differs.
 * Instances are keyed by node name, as in Curator; a corrupt node is reported (`error`) and left out.
 */
import { EventEmitter } from 'node:events';
import { Reporter } from '@zkwire/common';
import { ChangeStream } from './change-stream.js';
import { type CallOptions, Deadline } from './deadline.js';
import { IllegalDiscoveryStateError } from './errors.js';
import { instanceKey, type ServiceInstance } from './service-instance.js';
import { validateSegment } from './validate.js';
import {
  type DiscoveryClient,
  type DiscoveryConnectionState,
  type DiscoveryWatcher,
  isClientClosed,
  isNodeExists,
  isNoNode,
  isNoWatcher,
  isRetryable,
  isSessionExpired,
} from './zk-client.js';

/**
 * Waits for every read, then throws the first failure: unlike Promise.all it never returns while a read is
 * still out, so `close()` knows every watch that may have been armed.
 */
async function settleAll(reads: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(reads);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Options of a {@link ServiceCache}. */
export interface ServiceCacheOptions {
  /** The service whose instances are cached. */
  name: string;
}

/** Events of a {@link ServiceCache}. */
export interface ServiceCacheEvents {
  /** The instances changed (Curator's `cacheChanged`); not emitted for the initial load. */
  changed: [ServiceInstance[]];
  /** A corrupt instance node (a `BadInstanceDataError` with its `path`) or a failed background read. */
  error: [unknown];
  /** The cache closed. */
  closed: [];
}

/** What a cache needs from its ServiceDiscovery. */
export interface ServiceCacheHost {
  readonly client: DiscoveryClient;
  pathForName(name: string): string;
  /** The instance in a node's bytes, as the discovery reads them. */
  deserialize(bytes: Uint8Array, path: string): ServiceInstance;
}

interface Entry {
  /** Bumped by every read and every deletion: a reply of an older read is dropped. */
  generation: number;
  /** Undefined until read, or when the node is corrupt. */
  instance: ServiceInstance | undefined;
}

type Phase = 'new' | 'starting' | 'started' | 'closed';

/** A live view of one service's instances. */
export class ServiceCache
  extends EventEmitter<ServiceCacheEvents>
  implements AsyncDisposable, AsyncIterable<ServiceInstance[]>
{
  readonly name: string;
  /** `<basePath>/<name>`. */
  readonly path: string;
  readonly #client: DiscoveryClient;
  readonly #host: ServiceCacheHost;
  readonly #entries = new Map<string, Entry>();
  /** Children whose data watch may be armed on the server: what `close()` removes. */
  readonly #dataWatched = new Set<string>();
  readonly #stream = new ChangeStream<ServiceInstance[]>();
  /** Reloads and refreshes under way: `close()` waits for them so that no watch is armed after it. */
  readonly #inFlight = new Set<Promise<unknown>>();
  #phase: Phase = 'new';
  #needsReload = false;
  #signature = '';
  readonly #childWatcher: DiscoveryWatcher = (event) => this.#onChildEvent(event.type);
  readonly #dataWatcher: DiscoveryWatcher = (event) => this.#onDataEvent(event.type, event.path);
  readonly #onState = (state: DiscoveryConnectionState) => this.#stateChanged(state);
  /** Calls our listeners (one that throws changes nothing here) and reports failed background reads. */
  readonly #reporter: Reporter<ServiceCacheEvents>;

  constructor(host: ServiceCacheHost, options: ServiceCacheOptions) {
    super();
    this.name = validateSegment(options?.name, 'name');
    this.path = host.pathForName(this.name);
    this.#client = host.client;
    this.#host = host;
    this.#reporter = new Reporter(this, host.client, `ServiceCache ${this.path}`, 'zookeeper discovery');
  }

  /**
   * Makes the service node (a container, as Curator's EnsureContainers does) if missing, loads every instance
   * and resolves once the cache holds them.
   */
  async start(options?: CallOptions): Promise<void> {
    if (this.#phase !== 'new') throw new IllegalDiscoveryStateError(`ServiceCache already ${this.#phase}`);
    const deadline = Deadline.of(options);
    this.#phase = 'starting';
    this.#client.on('state', this.#onState);
    try {
      try {
        await this.#client.create(this.path, null, {
          ...deadline.toOptions(),
          mode: 'container',
          createParents: 'container',
        });
      } catch (error) {
        if (!isNodeExists(error)) throw error;
      }
      await this.#track(this.#reload(deadline));
    } catch (error) {
      await this.close();
      throw error;
    }
    if (this.#phase !== 'starting')
      throw new IllegalDiscoveryStateError('ServiceCache closed while starting');
    this.#phase = 'started';
    this.#signature = this.#currentSignature();
  }

  /** The instances now cached, sorted by node name (Curator's `getInstances`). */
  instances(): ServiceInstance[] {
    return [...this.#entries.entries()]
      .filter(([, entry]) => entry.instance !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry.instance as ServiceInstance);
  }

  /** The instances now, then the instances after each change, until the cache closes. */
  [Symbol.asyncIterator](): AsyncIterableIterator<ServiceInstance[]> {
    return this.#stream.iterate(this.#phase === 'started' ? this.instances() : undefined);
  }

  /** Stops watching: removes every watch it armed and ends the iterators. The nodes stay. */
  async close(): Promise<void> {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#client.off('state', this.#onState);
    this.#stream.end();
    // A read already sent arms its watch when its reply comes: wait for those replies, then remove them all.
    await Promise.allSettled([...this.#inFlight]);
    const removals = [
      this.#removeWatch(this.path, 'any', this.#childWatcher),
      ...[...this.#dataWatched].map((name) =>
        this.#removeWatch(`${this.path}/${name}`, 'data', this.#dataWatcher),
      ),
    ];
    this.#dataWatched.clear();
    this.#entries.clear();
    await Promise.all(removals);
    this.#reporter.emit('closed');
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #removeWatch(path: string, type: 'any' | 'data', watcher: DiscoveryWatcher): Promise<void> {
    try {
      await this.#client.removeWatches(path, type, { watcher, local: true });
    } catch (error) {
      // Gone already (it fired, or died with the session), or the client is closed: nothing is left anyway.
      if (!isNoWatcher(error) && !isNoNode(error) && !isClientClosed(error))
        this.#reporter.background(error, 'removing a watch failed');
    }
  }

  /** Lists the children (arming the child watch) and reads each of them, all in flight together. */
  async #reload(deadline: Deadline): Promise<void> {
    const names = await this.#list(deadline);
    const listed = new Set(names);
    for (const name of this.#entries.keys()) if (!listed.has(name)) this.#entries.delete(name);
    await settleAll(names.map((name) => this.#read(name, deadline)));
  }

  /** After a child event: drops the children that left, reads the ones that came. */
  async #relist(): Promise<void> {
    const names = await this.#list(Deadline.NONE);
    const listed = new Set(names);
    for (const name of this.#entries.keys()) if (!listed.has(name)) this.#entries.delete(name);
    await settleAll(
      names.filter((name) => !this.#entries.has(name)).map((name) => this.#read(name, Deadline.NONE)),
    );
  }

  /** Keeps `work` in the set `close()` waits for until it settles. */
  #track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    const settled = () => this.#inFlight.delete(work);
    work.then(settled, settled);
    return work;
  }

  async #list(deadline: Deadline): Promise<string[]> {
    if (this.#phase === 'closed') return [];
    try {
      return await this.#client.getChildren(this.path, {
        ...deadline.toOptions(),
        watch: this.#childWatcher,
      });
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
    // The service node is gone (a container reaped when empty): watch for its return.
    const stat = await this.#client.exists(this.path, { ...deadline.toOptions(), watch: this.#childWatcher });
    return stat === null ? [] : this.#list(deadline);
  }

  async #read(name: string, deadline: Deadline): Promise<void> {
    if (this.#phase === 'closed') return;
    let entry = this.#entries.get(name);
    if (!entry) {
      entry = { generation: 0, instance: undefined };
      this.#entries.set(name, entry);
    }
    const generation = ++entry.generation;
    const path = `${this.path}/${name}`;
    const current = () =>
      this.#phase !== 'closed' && this.#entries.get(name) === entry && entry.generation === generation;
    this.#dataWatched.add(name);
    let data: Uint8Array;
    try {
      ({ data } = await this.#client.getData(path, { ...deadline.toOptions(), watch: this.#dataWatcher }));
    } catch (error) {
      if (!isNoNode(error)) throw error;
      this.#dataWatched.delete(name);
      if (current()) this.#entries.delete(name);
      return;
    }
    if (!current()) return;
    try {
      entry.instance = this.#host.deserialize(data, path);
    } catch (error) {
      entry.instance = undefined;
      this.#reporter.background(error, 'a corrupt instance node was left out');
    }
  }

  #onChildEvent(type: string): void {
    if (this.#phase === 'closed') return;
    if (type === 'sessionExpired') this.#needsReload = true;
    else if (type === 'childrenChanged' || type === 'created' || type === 'deleted')
      this.#background(() => this.#relist());
  }

  #onDataEvent(type: string, path: string): void {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (type !== 'dataWatchRemoved') this.#dataWatched.delete(name);
    if (this.#phase === 'closed') return;
    if (type === 'sessionExpired') this.#needsReload = true;
    else if (type === 'deleted') {
      this.#entries.delete(name);
      this.#publish();
    } else if (type === 'dataChanged' && this.#entries.has(name)) {
      this.#background(() => this.#read(name, Deadline.NONE));
    }
  }

  #stateChanged(state: DiscoveryConnectionState): void {
    if (this.#phase === 'closed') return;
    if (state === 'lost') this.#needsReload = true;
    else if (state !== 'suspended' && this.#needsReload) {
      this.#needsReload = false;
      this.#background(() => this.#reload(Deadline.NONE));
    }
  }

  /** Runs a refresh; a connection problem schedules a full reload on the next connection. */
  #background(task: () => Promise<void>): void {
    this.#track(task()).then(
      () => this.#publish(),
      (error: unknown) => {
        if (this.#phase === 'closed') return;
        if (isRetryable(error) || isSessionExpired(error)) this.#needsReload = true;
        else this.#reporter.background(error, 'a background read failed');
      },
    );
  }

  #currentSignature(): string {
    return JSON.stringify(
      [...this.#entries.entries()]
        .filter(([, entry]) => entry.instance !== undefined)
        .map(([name, entry]) => [name, instanceKey(entry.instance as ServiceInstance)])
        .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
    );
  }

  /** Tells listeners and iterators, only when the instances really differ from what they last heard. */
  #publish(): void {
    if (this.#phase !== 'started') return;
    const signature = this.#currentSignature();
    if (signature === this.#signature) return;
    this.#signature = signature;
    const instances = this.instances();
    this.#stream.push(instances);
    this.#reporter.emit('changed', instances);
  }
}
