/**
 * @zkwire/discovery: Curator-compatible service discovery (curator-x-discovery 5.4's layout and bytes). The
 * README maps each Curator class to ours. One export statement per module, sorted by path.
 */

export { ServiceDiscoveryBuilder, ServiceProviderBuilder, serviceProviderBuilder } from './builders.js';
export type { DiscoveryCompression, DiscoveryCompressionProvider } from './compression.js';
export type { CallOptions } from './deadline.js';
export { DEFAULT_DOWN_INSTANCE_POLICY, type DownInstancePolicy, DownInstances } from './down-instances.js';
export {
  BadInstanceDataError,
  DiscoveryError,
  DiscoveryErrorCode,
  IllegalDiscoveryStateError,
  InvalidDiscoveryArgumentError,
  ServiceNotRegisteredError,
} from './errors.js';
export {
  deserializeInstance,
  instanceToJson,
  type SerializerOptions,
  serializeInstance,
} from './instance-serializer.js';
export type { DiscoveryPathConstructor } from './path-constructor.js';
export { DEFAULT_OBJECT_CLASS, type JsonValue } from './payload.js';
export { ServiceCache, type ServiceCacheEvents, type ServiceCacheOptions } from './service-cache.js';
export {
  ServiceDiscovery,
  type ServiceDiscoveryEvents,
  type ServiceDiscoveryOptions,
} from './service-discovery.js';
export {
  buildUri,
  createServiceInstance,
  localAddress,
  type ServiceInstance,
  ServiceInstanceBuilder,
  type ServiceInstanceOptions,
  ServiceType,
} from './service-instance.js';
export {
  type ProviderStrategyOption,
  ServiceProvider,
  type ServiceProviderEvents,
  type ServiceProviderOptions,
} from './service-provider.js';
export { type ProviderStrategy, RandomStrategy, RoundRobinStrategy, StickyStrategy } from './strategies.js';
export { UriSpec, UriSpecField, type UriSpecInstance, type UriSpecPart } from './uri-spec.js';
export type {
  DiscoveryClient,
  DiscoveryConnectionState,
  DiscoveryStat,
  DiscoveryWatcher,
} from './zk-client.js';
