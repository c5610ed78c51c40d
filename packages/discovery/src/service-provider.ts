/**
 * Curator's ServiceProvider: one instance of a service at a time, picked by a strategy from a ServiceCache's
 * live list after three filters, in Curator's order: the caller's filters, the down-instance policy
 * (`noteError`), then `enabled`.
 */
import { EventEmitter } from 'node:events';
import { Reporter } from '@zkwire/common';
import type { CallOptions } from './deadline.js';
import { type DownInstancePolicy, DownInstances } from './down-instances.js';
import { IllegalDiscoveryStateError, InvalidDiscoveryArgumentError } from './errors.js';
import { ServiceCache, type ServiceCacheHost } from './service-cache.js';
import type { ServiceInstance } from './service-instance.js';
import { type ProviderStrategy, RandomStrategy, RoundRobinStrategy, StickyStrategy } from './strategies.js';

/** The strategies by name, or your own {@link ProviderStrategy}. */
export type ProviderStrategyOption = 'round-robin' | 'random' | 'sticky' | ProviderStrategy;

/** Options of a {@link ServiceProvider}. */
export interface ServiceProviderOptions {
  /** The service to provide instances of. */
  serviceName: string;
  /** Default 'round-robin' (Curator's default); 'sticky' sticks to a round-robin choice. */
  strategy?: ProviderStrategyOption;
  /** Curator's defaults: 30000 ms, 2 errors. */
  downInstancePolicy?: DownInstancePolicy;
  /** Extra filters (Curator's `additionalFilter`), applied first. */
  filters?: readonly ((instance: ServiceInstance) => boolean)[];
  /** The clock of the down-instance policy (default Date.now). */
  now?: () => number;
}

/** Events of a {@link ServiceProvider}. */
export interface ServiceProviderEvents {
  /** From its cache: a corrupt instance node (with its `path`), or a failed background read. */
  error: [unknown];
  closed: [];
}

function strategyOf(option: ProviderStrategyOption | undefined): ProviderStrategy {
  switch (option ?? 'round-robin') {
    case 'round-robin':
      return new RoundRobinStrategy();
    case 'random':
      return new RandomStrategy();
    case 'sticky':
      return new StickyStrategy();
    default:
      if (typeof option === 'object' && option !== null && typeof option.getInstance === 'function')
        return option;
      throw new InvalidDiscoveryArgumentError(
        'strategy',
        "must be 'round-robin', 'random', 'sticky' or { getInstance }",
      );
  }
}

/** Picks instances of one service from a live cache. */
export class ServiceProvider extends EventEmitter<ServiceProviderEvents> implements AsyncDisposable {
  readonly serviceName: string;
  readonly #cache: ServiceCache;
  readonly #strategy: ProviderStrategy;
  readonly #down: DownInstances;
  readonly #filters: readonly ((instance: ServiceInstance) => boolean)[];
  #closed = false;
  /** Calls our listeners (one that throws changes nothing here) and reports what the cache meets. */
  readonly #reporter: Reporter<ServiceProviderEvents>;

  constructor(host: ServiceCacheHost, options: ServiceProviderOptions) {
    super();
    this.#strategy = strategyOf(options?.strategy);
    this.#down = new DownInstances(options.downInstancePolicy, options.now);
    this.#filters = options.filters ?? [];
    if (!Array.isArray(this.#filters) || this.#filters.some((filter) => typeof filter !== 'function')) {
      throw new InvalidDiscoveryArgumentError('filters', 'must be an array of functions');
    }
    this.#cache = new ServiceCache(host, { name: options.serviceName });
    this.serviceName = this.#cache.name;
    this.#reporter = new Reporter(
      this,
      host.client,
      `ServiceProvider ${this.#cache.path}`,
      'zookeeper discovery',
    );
    // The cache's listeners are only ours, which cannot throw: what it reports is background work.
    this.#cache.on('error', (error) => this.#reporter.background(error, 'its cache failed'));
  }

  /** Starts its cache: resolves once the service's instances are loaded. */
  start(options?: CallOptions): Promise<void> {
    return this.#cache.start(options);
  }

  /** The instances a pick is made from: filtered, enabled, not down. */
  getAllInstances(): ServiceInstance[] {
    this.#checkOpen();
    return this.#cache
      .instances()
      .filter((instance) => this.#filters.every((filter) => filter(instance)))
      .filter((instance) => this.#down.isUp(instance))
      .filter((instance) => instance.enabled);
  }

  /** One instance by the strategy, or undefined when there is none. */
  getInstance(): ServiceInstance | undefined {
    return this.#strategy.getInstance(this.getAllInstances());
  }

  /** Reports that `instance` failed a call: enough errors within the policy's timeout take it out for a while. */
  noteError(instance: ServiceInstance): void {
    this.#checkOpen();
    this.#down.add(instance);
  }

  /** Closes its cache (no watch left behind). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#cache.close();
    this.#reporter.emit('closed');
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new IllegalDiscoveryStateError('ServiceProvider is closed');
  }
}
