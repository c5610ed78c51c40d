import { describe, expect, it } from 'vitest';
import { DiscoveryError, InvalidDiscoveryArgumentError } from './errors.js';
import { checkInstance, createServiceInstance, ServiceInstanceBuilder } from './service-instance.js';

const refused = (make: () => unknown, argument: string) => {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidDiscoveryArgumentError);
  expect(DiscoveryError.isInstance(caught)).toBe(true);
  expect((caught as InvalidDiscoveryArgumentError).code).toBe('INVALID_ARGUMENT');
  expect((caught as InvalidDiscoveryArgumentError).argument).toBe(argument);
};

describe('service instances: defaults and checks', () => {
  it("fills Curator's defaults: a UUID id, now, DYNAMIC, enabled", () => {
    const before = Date.now();
    const instance = createServiceInstance({ name: 'svc', address: 'h' });
    expect(instance.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(instance.registrationTimeUTC).toBeGreaterThanOrEqual(before);
    expect(instance.serviceType).toBe('DYNAMIC');
    expect(instance.enabled).toBe(true);
    expect(Object.isFrozen(instance)).toBe(true);
  });

  it('refuses names and ids with "/", empty, "." or "..", control characters', () => {
    refused(() => createServiceInstance({ name: 'a/b' }), 'name');
    refused(() => createServiceInstance({ name: '' }), 'name');
    refused(() => createServiceInstance({ name: '..' }), 'name');
    refused(() => createServiceInstance({ name: 'ok', id: 'x/y' }), 'id');
    refused(() => createServiceInstance({ name: 'ok', id: 'a\u0000b' }), 'id');
  });

  it('refuses bad ports', () => {
    for (const port of [-1, 65_536, 1.5, Number.NaN, '80']) {
      refused(() => createServiceInstance({ name: 'ok', port: port as number }), 'port');
    }
    refused(() => createServiceInstance({ name: 'ok', sslPort: 70_000 }), 'sslPort');
  });

  it('refuses payloads JSON cannot carry, naming where', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    refused(() => createServiceInstance({ name: 'ok', payload: cyclic as never }), 'payload.self');
    refused(
      () => createServiceInstance({ name: 'ok', payload: { when: new Date() } as never }),
      'payload.when',
    );
    refused(() => createServiceInstance({ name: 'ok', payload: [1, () => 1] as never }), 'payload[1]');
    refused(
      () => createServiceInstance({ name: 'ok', payload: { n: Number.POSITIVE_INFINITY } }),
      'payload.n',
    );
    refused(() => createServiceInstance({ name: 'ok', payload: { b: 1n } as never }), 'payload.b');
    refused(() => createServiceInstance({ name: 'ok', payloadClass: 'not a class' }), 'payloadClass');
    refused(() => createServiceInstance({ name: 'ok', serviceType: 'SOMETIMES' as never }), 'serviceType');
    refused(() => createServiceInstance({ name: 'ok', uriSpec: '{open' }), 'uriSpec');
  });

  it('checks hand-made objects too, and the builder uses Curator names', () => {
    refused(() => checkInstance({ name: 'x', id: 'a/b' } as never), 'id');
    const built = new ServiceInstanceBuilder()
      .name('svc')
      .id('one')
      .address('h')
      .port(80)
      .payload({ a: 1 }, 'com.acme.A')
      .serviceType('STATIC')
      .uriSpec('{scheme}://{address}:{port}')
      .build();
    expect(built).toMatchObject({
      name: 'svc',
      id: 'one',
      port: 80,
      payloadClass: 'com.acme.A',
      serviceType: 'STATIC',
    });
    expect(built.uriSpec?.build(built)).toBe('http://h:80');
  });
});
