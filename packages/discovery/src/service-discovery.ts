/**
 * Curator's ServiceDiscovery: registers this process's instances under `<basePath>/<name>/<id>` (or the layout
 * of a `pathConstructor`, curator-x-discovery 5.6's DiscoveryPathConstructor) and keeps them
 * there across reconnects, session expiry and deletion by others; queries names and instances; makes caches
 * and providers. The bytes are Curator 5.4's, so Java services using curator-x-discovery see ours and we see
 * theirs.
 */
import { EventEmitter } from 'node:events';
import { Reporter } from '@zkwire/common';
import { type DiscoveryCompression, type InstanceCodec, instanceCodec } from './compression.js';
import { type CallOptions, Deadline } from './deadline.js';
import { IllegalDiscoveryStateError, ServiceNotRegisteredError } from './errors.js';
import { deserializeInstance, type SerializerOptions, serializeInstance } from './instance-serializer.js';
import { type DiscoveryPathConstructor, type DiscoveryPaths, discoveryPaths } from './path-constructor.js';
import { Registration, type RegistrationHost } from './registration.js';
import { ServiceCache, type ServiceCacheOptions } from './service-cache.js';
import { checkInstance, type ServiceInstance } from './service-instance.js';
import { ServiceProvider, type ServiceProviderOptions } from './service-provider.js';
import { validateSegment } from './validate.js';
import { type DiscoveryClient, type DiscoveryConnectionState, isNoNode } from './zk-client.js';

/** Options of a {@link ServiceDiscovery}. */
export interface ServiceDiscoveryOptions {
  /**
   * Where services live, e.g. `/services` (Curator's `basePath`): instances at `<basePath>/<name>/<id>`.
   * Give this or `pathConstructor`.
   */
  basePath?: string;
  /**
   * A layout of your own instead of `basePath` (Curator 5.6's `pathConstructor(DiscoveryPathConstructor)`):
   * names under `getBasePath()`, instances at `<getPathForInstances(name)>/<id>`.
   */
  pathConstructor?: DiscoveryPathConstructor;
  /** An instance registered by `start()` (Curator's `thisInstance`). */
  thisInstance?: ServiceInstance;
  /** How instances are written; by default exactly as Curator's default serializer. */
  serializer?: SerializerOptions;
  /**
   * Curator's `watchInstances` (default false): when someone else edits the node of an instance registered
   * here, the edit becomes our copy, so it survives re-registration instead of being overwritten.
   */
  watchInstances?: boolean;
  /**
   * Compress the instances' data as a Curator client built with `enableCompression()` does (Curator 5.8,
   * CURATOR-725): `'gzip'` writes and reads what Curator's GzipCompressionProvider does. Every discovery,
   * cache and provider on the same services must agree, on both sides.
   */
  compression?: DiscoveryCompression;
}

/** Events of a {@link ServiceDiscovery}. */
export interface ServiceDiscoveryEvents {
  /**
   * A background failure (a re-registration after a reconnect, say) or a corrupt instance skipped by
   * `queryForInstances` (a `BadInstanceDataError` with its `path`). Emitted only while someone listens.
   */
  error: [unknown];
}

type Phase = 'new' | 'started' | 'closed';

/** Registration and queries of service instances, as curator-x-discovery lays them out. */
export class ServiceDiscovery extends EventEmitter<ServiceDiscoveryEvents> implements AsyncDisposable {
  readonly client: DiscoveryClient;
  /** The parent of the service names (`basePath`, or the path constructor's `getBasePath()`). */
  readonly basePath: string;
  readonly #paths: DiscoveryPaths;
  readonly #serializer: SerializerOptions;
  readonly #codec: InstanceCodec;
  readonly #registrations = new Map<string, Registration>();
  readonly #closeables = new Set<ServiceCache | ServiceProvider>();
  readonly #thisInstance: ServiceInstance | undefined;
  #phase: Phase = 'new';
  readonly #onState = (state: DiscoveryConnectionState) => this.#stateChanged(state);
  readonly #host: RegistrationHost;
  readonly #reporter: Reporter<ServiceDiscoveryEvents>;

  constructor(client: DiscoveryClient, options: ServiceDiscoveryOptions) {
    super();
    this.client = client;
    this.#paths = discoveryPaths(options?.basePath, options?.pathConstructor);
    this.basePath = this.#paths.basePath;
    this.#reporter = new Reporter(this, client, `ServiceDiscovery ${this.basePath}`, 'zookeeper discovery');
    this.#serializer = { writeEnabled: options.serializer?.writeEnabled === true };
    this.#codec = instanceCodec(options.compression);
    this.#thisInstance = options.thisInstance === undefined ? undefined : checkInstance(options.thisInstance);
    this.#host = {
      client,
      pathForInstance: (name, id) => this.pathForInstance(name, id),
      bytesOf: (instance) => this.serialize(instance),
      deserialize: (bytes, path) => this.deserialize(bytes, path),
      report: (error) => this.report(error),
      watchInstances: options.watchInstances === true,
    };
  }

  /** The parent of the service's instances: `<basePath>/<name>`, or what the path constructor gives. */
  pathForName(name: string): string {
    return this.#paths.pathForName(name);
  }

  /** `<pathForName(name)>/<id>`. */
  pathForInstance(name: string, id: string): string {
    return `${this.pathForName(name)}/${validateSegment(id, 'id')}`;
  }

  /** The instance's bytes, as this discovery writes them (compressed with the `compression` option). */
  serialize(instance: ServiceInstance): Uint8Array {
    const path = this.pathForInstance(instance.name, instance.id);
    return this.#codec.encode(path, serializeInstance(instance, this.#serializer));
  }

  /** The instance in the bytes of the node at `path`, as this discovery reads them; BadInstanceDataError if none. */
  deserialize(bytes: Uint8Array, path: string): ServiceInstance {
    return deserializeInstance(this.#codec.decode(path, bytes), path);
  }

  /** Registers `thisInstance` (if any) and starts re-registering after reconnects and new sessions. */
  async start(options?: CallOptions): Promise<void> {
    if (this.#phase !== 'new')
      throw new IllegalDiscoveryStateError(`ServiceDiscovery already ${this.#phase}`);
    const deadline = Deadline.of(options);
    this.#phase = 'started';
    this.client.on('state', this.#onState);
    if (this.#thisInstance) await this.registerService(this.#thisInstance, deadline.toOptions());
  }

  /**
   * Creates the instance's node (ephemeral for DYNAMIC, ephemeral-sequential for DYNAMIC_SEQUENTIAL, persistent
   * for STATIC and PERMANENT; missing parents as containers) and keeps it there until unregistered. Registering
   * an id again replaces the node, as in Curator.
   */
  async registerService(instance: ServiceInstance, options?: CallOptions): Promise<void> {
    this.#checkStarted();
    const deadline = Deadline.of(options);
    const checked = checkInstance(instance);
    let registration = this.#registrations.get(checked.id);
    if (registration === undefined || registration.instance.name !== checked.name) {
      if (registration) await this.unregisterService(registration.instance, options);
      registration = new Registration(this.#host, checked);
      this.#registrations.set(checked.id, registration);
      await registration.register(deadline);
    } else {
      await registration.replace(checked, deadline);
    }
  }

  /** Writes a new version of an instance this discovery registered (by id); throws ServiceNotRegisteredError else. */
  async updateService(instance: ServiceInstance, options?: CallOptions): Promise<void> {
    this.#checkStarted();
    const deadline = Deadline.of(options);
    const checked = checkInstance(instance);
    const registration = this.#registrations.get(checked.id);
    if (!registration || registration.instance.name !== checked.name) {
      throw new ServiceNotRegisteredError(checked.name, checked.id);
    }
    await registration.update(checked, deadline);
  }

  /** Deletes the node of an instance this discovery registered (by id); an unknown id does nothing, as in Curator. */
  async unregisterService(instance: ServiceInstance | string, options?: CallOptions): Promise<void> {
    if (this.#phase === 'closed') throw new IllegalDiscoveryStateError('ServiceDiscovery is closed');
    const deadline = Deadline.of(options);
    const id = typeof instance === 'string' ? instance : instance.id;
    const registration = this.#registrations.get(id);
    if (!registration) return;
    this.#registrations.delete(id);
    await registration.unregister(deadline);
  }

  /** The instances registered through this discovery, by id. */
  registeredInstances(): ServiceInstance[] {
    return [...this.#registrations.values()].map((registration) => registration.instance);
  }

  /** The service names under the base path (NoNode when it does not exist, as Curator's). */
  async queryForNames(options?: CallOptions): Promise<string[]> {
    this.#checkOpen();
    return this.client.getChildren(this.basePath, Deadline.of(options).toOptions());
  }

  /**
   * Every instance of a service; [] when the service has no node. The reads are pipelined. A node that vanished
   * meanwhile is skipped; a corrupt node is skipped and reported (`error` event), where Curator fails the
   * whole query.
   */
  async queryForInstances(name: string, options?: CallOptions): Promise<ServiceInstance[]> {
    this.#checkOpen();
    const deadline = Deadline.of(options);
    const servicePath = this.pathForName(name);
    let ids: string[];
    try {
      ids = await this.client.getChildren(servicePath, deadline.toOptions());
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
    }
    const read = ids.sort().map((id) =>
      this.client.getData(`${servicePath}/${id}`, deadline.toOptions()).then(
        ({ data }) => ({ id, data }),
        (error: unknown) => {
          if (isNoNode(error)) return undefined;
          throw error;
        },
      ),
    );
    const found: ServiceInstance[] = [];
    for (const result of await Promise.all(read)) {
      if (!result) continue;
      try {
        found.push(this.deserialize(result.data, `${servicePath}/${result.id}`));
      } catch (error) {
        this.report(error, 'a corrupt instance node was left out');
      }
    }
    return found;
  }

  /** One instance, or null when its node does not exist; a corrupt node throws BadInstanceDataError. */
  async queryForInstance(name: string, id: string, options?: CallOptions): Promise<ServiceInstance | null> {
    this.#checkOpen();
    const path = this.pathForInstance(name, id);
    try {
      const { data } = await this.client.getData(path, Deadline.of(options).toOptions());
      return this.deserialize(data, path);
    } catch (error) {
      if (isNoNode(error)) return null;
      throw error;
    }
  }

  /** A cache of one service's live instances (call `start()` on it); closed with this discovery. */
  serviceCache(name: string, options?: Omit<ServiceCacheOptions, 'name'>): ServiceCache {
    this.#checkOpen();
    const cache = new ServiceCache(this, { ...options, name });
    this.#track(cache);
    return cache;
  }

  /** A provider of one service's instances (call `start()` on it); closed with this discovery. */
  serviceProvider(options: ServiceProviderOptions): ServiceProvider {
    this.#checkOpen();
    const provider = new ServiceProvider(this, options);
    this.#track(provider);
    return provider;
  }

  /**
   * Closes the caches and providers made here, unregisters every instance registered here (deleting its node)
   * and stops listening to the client. Failures to delete are thrown after everything was tried.
   */
  async close(options?: CallOptions): Promise<void> {
    if (this.#phase === 'closed') return;
    const deadline = Deadline.of(options);
    this.#phase = 'closed';
    this.client.off('state', this.#onState);
    const closing = [...this.#closeables].map((closeable) => closeable.close());
    const registrations = [...this.#registrations.values()];
    this.#registrations.clear();
    const results = await Promise.allSettled([
      ...closing,
      ...registrations.map((registration) => registration.unregister(deadline)),
    ]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Reports a failure no caller waits for: to the `error` listeners, else the client's logger (warn), else a
   * process warning (ZKWIRE_BACKGROUND_ERROR, once per cause). Never throws.
   */
  report(error: unknown, what = 'background work failed'): void {
    this.#reporter.background(error, what);
  }

  #track(closeable: ServiceCache | ServiceProvider): void {
    this.#closeables.add(closeable);
    closeable.once('closed', () => this.#closeables.delete(closeable));
  }

  #stateChanged(state: DiscoveryConnectionState): void {
    if (state !== 'connected' && state !== 'reconnected') return;
    for (const registration of this.#registrations.values()) {
      registration.ensure(Deadline.NONE).catch((error: unknown) => this.report(error));
    }
  }

  #checkOpen(): void {
    if (this.#phase === 'closed') throw new IllegalDiscoveryStateError('ServiceDiscovery is closed');
  }

  #checkStarted(): void {
    if (this.#phase !== 'started') {
      throw new IllegalDiscoveryStateError(
        this.#phase === 'new'
          ? 'ServiceDiscovery not started: call start() first'
          : 'ServiceDiscovery is closed',
      );
    }
  }
}
