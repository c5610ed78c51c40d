import { describe, expect, it } from 'vitest';
import { ServiceDiscoveryBuilder, serviceProviderBuilder } from './builders.js';
import { InvalidDiscoveryArgumentError } from './errors.js';
import { createServiceInstance } from './service-instance.js';
import type { DiscoveryClient } from './zk-client.js';

// Building sends nothing: a client that fails any call proves it.
const untouchable = new Proxy({} as DiscoveryClient, {
  get(_target, property) {
    throw new Error(`the client was used: ${String(property)}`);
  },
});

describe("builders by Curator's names", () => {
  it('ServiceDiscoveryBuilder collects the options and checks them in build()', () => {
    const discovery = ServiceDiscoveryBuilder.builder()
      .client(untouchable)
      .basePath('/services')
      .thisInstance(createServiceInstance({ name: 'svc', address: 'h' }))
      .serializer({ writeEnabled: true })
      .build();
    expect(discovery.basePath).toBe('/services');
    expect(discovery.pathForInstance('svc', 'id-1')).toBe('/services/svc/id-1');
    expect(() => ServiceDiscoveryBuilder.builder().client(untouchable).basePath('services').build()).toThrow(
      InvalidDiscoveryArgumentError,
    );
  });

  it('serviceProviderBuilder refuses a bad name or strategy before anything is sent', () => {
    const discovery = ServiceDiscoveryBuilder.builder().client(untouchable).basePath('/services').build();
    expect(() => serviceProviderBuilder(discovery).serviceName('a/b').build()).toThrow(
      InvalidDiscoveryArgumentError,
    );
    expect(() =>
      serviceProviderBuilder(discovery)
        .serviceName('ok')
        .providerStrategy('best' as never)
        .build(),
    ).toThrow(InvalidDiscoveryArgumentError);
    const provider = serviceProviderBuilder(discovery)
      .serviceName('ok')
      .providerStrategy('random')
      .downInstancePolicy({ timeoutMs: 1_000, errorThreshold: 3 })
      .additionalFilter(() => true)
      .build();
    expect(provider.serviceName).toBe('ok');
  });
});
