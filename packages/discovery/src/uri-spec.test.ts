import { describe, expect, it } from 'vitest';
import { InvalidDiscoveryArgumentError } from './errors.js';
import { createServiceInstance } from './service-instance.js';
import { UriSpec } from './uri-spec.js';

const instance = (over: Partial<Parameters<typeof createServiceInstance>[0]> = {}) =>
  createServiceInstance({
    name: 'orders',
    id: 'id-1',
    address: '10.0.0.5',
    port: 8080,
    registrationTimeUTC: 1_795_558_400_154,
    ...over,
  });

describe('UriSpec (Curator rules)', () => {
  it('parses into literal and variable parts, as the JSON stores them', () => {
    expect(new UriSpec('{scheme}://{address}:{port}').parts).toEqual([
      { value: 'scheme', variable: true },
      { value: '://', variable: false },
      { value: 'address', variable: true },
      { value: ':', variable: false },
      { value: 'port', variable: true },
    ]);
  });

  it('trims variables, keeps literals verbatim, drops empty pieces ({} adds nothing)', () => {
    expect(new UriSpec(' a {  port } b{}c').parts).toEqual([
      { value: ' a ', variable: false },
      { value: 'port', variable: true },
      { value: ' b', variable: false },
      { value: 'c', variable: false },
    ]);
    expect(new UriSpec('{ }').parts).toEqual([{ value: '', variable: true }]);
  });

  it('refuses a { inside a variable, a } without {, and a variable left open', () => {
    for (const bad of ['{a{b}}', 'a}b', '{open']) {
      expect(() => new UriSpec(bad)).toThrow(InvalidDiscoveryArgumentError);
    }
  });

  it('builds {scheme}://{address}:{port}: http without an sslPort, https with one', () => {
    const spec = new UriSpec('{scheme}://{address}:{port}');
    expect(spec.build(instance())).toBe('http://10.0.0.5:8080');
    expect(new UriSpec('{scheme}://{address}:{ssl-port}').build(instance({ sslPort: 8443 }))).toBe(
      'https://10.0.0.5:8443',
    );
  });

  it("builds Curator's other fields: name, id, registration-time-utc, service-type in lower case, [ and ] as braces", () => {
    const spec = new UriSpec('{name}/{id}/{registration-time-utc}/{service-type}/{[}x{]}');
    expect(spec.build(instance({ serviceType: 'DYNAMIC_SEQUENTIAL' }))).toBe(
      'orders/id-1/1795558400154/dynamic_sequential/{x}',
    );
  });

  it('the observed Curator case: unknown variables build as nothing', () => {
    const spec = new UriSpec('{scheme}://{address}:{ssl-port}/{ unknown }{[}x{]}{service-type}');
    expect(spec.build(instance({ address: 'h', sslPort: 443, serviceType: 'DYNAMIC_SEQUENTIAL' }))).toBe(
      'https://h:443/{x}dynamic_sequential',
    );
  });

  it('null fields build as "", the caller\'s variables override everything, no instance leaves only scheme and braces', () => {
    const spec = new UriSpec('{scheme}://{address}:{port}{path}');
    expect(spec.build(instance({ address: null, port: null }))).toBe('http://:');
    expect(spec.build(instance(), { scheme: 'grpc', path: '/v1', port: 1 })).toBe('grpc://10.0.0.5:1/v1');
    expect(spec.build()).toBe('http://:');
    expect(spec.toString()).toBe('{scheme}://{address}:{port}{path}');
  });
});
