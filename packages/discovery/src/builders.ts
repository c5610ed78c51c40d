/**
 * Builders by Curator's names, for code ported from Java: each collects the same options as the options
 * objects and checks them in `build()`.
 */
import type { DownInstancePolicy } from './down-instances.js';
import type { SerializerOptions } from './instance-serializer.js';
import type { DiscoveryPathConstructor } from './path-constructor.js';
import { ServiceDiscovery } from './service-discovery.js';
import type { ServiceInstance } from './service-instance.js';
import type { ProviderStrategyOption, ServiceProvider, ServiceProviderOptions } from './service-provider.js';
import type { DiscoveryClient } from './zk-client.js';

/** `ServiceDiscoveryBuilder.builder().client(zk).basePath('/services').build()`. */
export class ServiceDiscoveryBuilder {
  #client: DiscoveryClient | undefined;
  #basePath: string | undefined;
  #pathConstructor: DiscoveryPathConstructor | undefined;
  #thisInstance: ServiceInstance | undefined;
  #serializer: SerializerOptions | undefined;
  #watchInstances = false;

  /** Curator's `ServiceDiscoveryBuilder.builder(payloadClass)`; payloads here are JSON, so no class. */
  static builder(): ServiceDiscoveryBuilder {
    return new ServiceDiscoveryBuilder();
  }

  client(client: DiscoveryClient): this {
    this.#client = client;
    return this;
  }
  basePath(basePath: string): this {
    this.#basePath = basePath;
    return this;
  }
  /** Curator 5.6's `pathConstructor(...)`: a layout of your own instead of `basePath`. */
  pathConstructor(pathConstructor: DiscoveryPathConstructor): this {
    this.#pathConstructor = pathConstructor;
    return this;
  }
  thisInstance(instance: ServiceInstance): this {
    this.#thisInstance = instance;
    return this;
  }
  /** Curator's `watchInstances(true)`: adopt edits of our nodes made by others. */
  watchInstances(watch: boolean): this {
    this.#watchInstances = watch;
    return this;
  }
  /** `{ writeEnabled: true }` is Curator's `new JsonInstanceSerializer(type, false)`. */
  serializer(options: SerializerOptions): this {
    this.#serializer = options;
    return this;
  }
  build(): ServiceDiscovery {
    return new ServiceDiscovery(this.#client as DiscoveryClient, {
      ...(this.#basePath === undefined ? {} : { basePath: this.#basePath }),
      ...(this.#pathConstructor === undefined ? {} : { pathConstructor: this.#pathConstructor }),
      ...(this.#thisInstance ? { thisInstance: this.#thisInstance } : {}),
      ...(this.#serializer ? { serializer: this.#serializer } : {}),
      watchInstances: this.#watchInstances,
    });
  }
}

/** `serviceProviderBuilder(discovery).serviceName('billing').providerStrategy('random').build()`. */
export class ServiceProviderBuilder {
  readonly #discovery: ServiceDiscovery;
  readonly #options: ServiceProviderOptions = { serviceName: '' };
  readonly #filters: ((instance: ServiceInstance) => boolean)[] = [];

  constructor(discovery: ServiceDiscovery) {
    this.#discovery = discovery;
  }

  serviceName(name: string): this {
    this.#options.serviceName = name;
    return this;
  }
  providerStrategy(strategy: ProviderStrategyOption): this {
    this.#options.strategy = strategy;
    return this;
  }
  downInstancePolicy(policy: DownInstancePolicy): this {
    this.#options.downInstancePolicy = policy;
    return this;
  }
  additionalFilter(filter: (instance: ServiceInstance) => boolean): this {
    this.#filters.push(filter);
    return this;
  }
  build(): ServiceProvider {
    return this.#discovery.serviceProvider({ ...this.#options, filters: [...this.#filters] });
  }
}

/** Curator's `discovery.serviceProviderBuilder()`. */
export function serviceProviderBuilder(discovery: ServiceDiscovery): ServiceProviderBuilder {
  return new ServiceProviderBuilder(discovery);
}
