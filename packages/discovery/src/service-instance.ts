/**
 * A service instance (Curator's ServiceInstance): who serves a service, where, since when, with what payload.
 * Plain frozen objects made by {@link createServiceInstance} (or {@link ServiceInstanceBuilder}), which checks
 * every field before anything can be sent.
 */
import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { InvalidDiscoveryArgumentError } from './errors.js';
import { type JsonValue, validateJson, validatePayloadClass } from './payload.js';
import { UriSpec, type UriSpecPart } from './uri-spec.js';
import { validatePort, validateSegment } from './validate.js';

/**
 * How an instance's node lives (Curator's ServiceType). DYNAMIC: an ephemeral node, gone with the session.
 * DYNAMIC_SEQUENTIAL: ephemeral-sequential (the node name is the id plus 10 digits). STATIC and PERMANENT:
 * persistent nodes, which stay until unregistered.
 */
export const ServiceType = {
  DYNAMIC: 'DYNAMIC',
  DYNAMIC_SEQUENTIAL: 'DYNAMIC_SEQUENTIAL',
  STATIC: 'STATIC',
  PERMANENT: 'PERMANENT',
} as const;

/** One of {@link ServiceType}. */
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];

const SERVICE_TYPES = new Set<string>(Object.values(ServiceType));

/** True for a known service type name. */
export function isServiceType(value: unknown): value is ServiceType {
  return typeof value === 'string' && SERVICE_TYPES.has(value);
}

/** One instance of a service, as stored at `<basePath>/<name>/<id>`. */
export interface ServiceInstance<P extends JsonValue = JsonValue> {
  /** The service name (a znode name). */
  readonly name: string;
  /** This instance's id, unique within the service (a znode name). */
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  /** Plain JSON; its Java type tag is kept apart in {@link payloadClass}. */
  readonly payload: P | null;
  /**
   * The Java class Jackson writes as the payload's `@class` tag (`com.acme.Details`). Undefined: objects are
   * written as `java.util.LinkedHashMap`, which a Java reader with a `Map` payload class accepts.
   */
  readonly payloadClass: string | undefined;
  /** Epoch milliseconds. */
  readonly registrationTimeUTC: number;
  readonly serviceType: ServiceType;
  readonly uriSpec: UriSpec | null;
  /** False takes the instance out of providers (caches and queries still list it). Written only on request. */
  readonly enabled: boolean;
}

/** Fields of a new instance; only `name` is required. */
export interface ServiceInstanceOptions<P extends JsonValue = JsonValue> {
  name: string;
  /** Default: a random UUID. */
  id?: string;
  /** Default: this host's first non-loopback IPv4 address (Curator's LocalIpFilter), else its first IPv6 one. */
  address?: string | null;
  port?: number | null;
  sslPort?: number | null;
  payload?: P | null;
  payloadClass?: string;
  /** Default: now. */
  registrationTimeUTC?: number;
  /** Default DYNAMIC. */
  serviceType?: ServiceType;
  /** A spec string (`'{scheme}://{address}:{port}'`), parts, or a UriSpec. */
  uriSpec?: UriSpec | string | readonly UriSpecPart[] | null;
  /** Default true. */
  enabled?: boolean;
}

/** The first address of this host that is neither loopback nor link-local, IPv4 first. */
export function localAddress(): string | null {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const usable = addresses.filter(
    (a) => !a.internal && !a.address.startsWith('fe80:') && !a.address.startsWith('169.254.'),
  );
  return (usable.find((a) => a.family === 'IPv4') ?? usable[0])?.address ?? null;
}

/** Checks every field and returns a frozen instance; throws InvalidDiscoveryArgumentError before anything is sent. */
export function createServiceInstance<P extends JsonValue = JsonValue>(
  options: ServiceInstanceOptions<P>,
): ServiceInstance<P> {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidDiscoveryArgumentError('instance', 'must be an object');
  }
  const name = validateSegment(options.name, 'name');
  const id = validateSegment(options.id ?? randomUUID(), 'id');
  const address = options.address === undefined ? localAddress() : options.address;
  if (address !== null && typeof address !== 'string') {
    throw new InvalidDiscoveryArgumentError('address', 'must be a string or null');
  }
  const registrationTimeUTC = options.registrationTimeUTC ?? Date.now();
  if (!Number.isSafeInteger(registrationTimeUTC) || registrationTimeUTC < 0) {
    throw new InvalidDiscoveryArgumentError(
      'registrationTimeUTC',
      `must be epoch milliseconds, got ${registrationTimeUTC}`,
    );
  }
  const serviceType = options.serviceType ?? ServiceType.DYNAMIC;
  if (!isServiceType(serviceType)) {
    throw new InvalidDiscoveryArgumentError('serviceType', `must be one of ${[...SERVICE_TYPES].join(', ')}`);
  }
  const enabled = options.enabled ?? true;
  if (typeof enabled !== 'boolean') throw new InvalidDiscoveryArgumentError('enabled', 'must be a boolean');
  const uriSpec =
    options.uriSpec === undefined || options.uriSpec === null
      ? null
      : options.uriSpec instanceof UriSpec
        ? options.uriSpec
        : new UriSpec(options.uriSpec);
  return Object.freeze({
    name,
    id,
    address,
    port: validatePort(options.port, 'port'),
    sslPort: validatePort(options.sslPort, 'sslPort'),
    payload: (options.payload === undefined ? null : validateJson(options.payload)) as P | null,
    payloadClass: validatePayloadClass(options.payloadClass),
    registrationTimeUTC,
    serviceType,
    uriSpec,
    enabled,
  });
}

/**
 * Checks an instance made elsewhere (a hand-written object, say) as {@link createServiceInstance} would, before
 * anything is sent; returns a frozen copy.
 */
export function checkInstance<P extends JsonValue>(instance: ServiceInstance<P>): ServiceInstance<P> {
  if (typeof instance !== 'object' || instance === null) {
    throw new InvalidDiscoveryArgumentError('instance', 'must be an object');
  }
  return createServiceInstance({
    ...instance,
    id: validateSegment(instance.id, 'id'),
    address: instance.address ?? null,
  });
}

/** The instance's URI from its UriSpec (`""` without one). */
export function buildUri(instance: ServiceInstance, variables?: Readonly<Record<string, unknown>>): string {
  return instance.uriSpec ? instance.uriSpec.build(instance, variables) : '';
}

/**
 * A key equal for equal instances (every field, as Curator's `ServiceInstance.equals`): the down-instance
 * policy and the sticky strategy compare instances with it.
 */
export function instanceKey(instance: ServiceInstance): string {
  return JSON.stringify([
    instance.name,
    instance.id,
    instance.address,
    instance.port,
    instance.sslPort,
    instance.payload,
    instance.payloadClass ?? null,
    instance.registrationTimeUTC,
    instance.serviceType,
    instance.uriSpec?.parts ?? null,
    instance.enabled,
  ]);
}

/** Curator's ServiceInstanceBuilder, by its method names; `build()` checks everything. */
export class ServiceInstanceBuilder<P extends JsonValue = JsonValue> {
  readonly #options: ServiceInstanceOptions<P> = { name: '' };

  name(name: string): this {
    this.#options.name = name;
    return this;
  }
  id(id: string): this {
    this.#options.id = id;
    return this;
  }
  address(address: string | null): this {
    this.#options.address = address;
    return this;
  }
  port(port: number | null): this {
    this.#options.port = port;
    return this;
  }
  sslPort(sslPort: number | null): this {
    this.#options.sslPort = sslPort;
    return this;
  }
  payload(payload: P | null, payloadClass?: string): this {
    this.#options.payload = payload;
    if (payloadClass !== undefined) this.#options.payloadClass = payloadClass;
    return this;
  }
  registrationTimeUTC(epochMs: number): this {
    this.#options.registrationTimeUTC = epochMs;
    return this;
  }
  serviceType(serviceType: ServiceType): this {
    this.#options.serviceType = serviceType;
    return this;
  }
  uriSpec(uriSpec: UriSpec | string | null): this {
    this.#options.uriSpec = uriSpec;
    return this;
  }
  enabled(enabled: boolean): this {
    this.#options.enabled = enabled;
    return this;
  }
  build(): ServiceInstance<P> {
    return createServiceInstance(this.#options);
  }
}
