import { describe, expect, it } from 'vitest';
import { InvalidDiscoveryArgumentError } from './errors.js';
import { discoveryPaths } from './path-constructor.js';

describe('discovery paths (DiscoveryPathConstructor)', () => {
  it("lays instances out under <basePath>/<name> by default, as Curator's DiscoveryPathConstructorImpl", () => {
    const paths = discoveryPaths('/services', undefined);
    expect(paths.basePath).toBe('/services');
    expect(paths.pathForName('orders')).toBe('/services/orders');
  });

  it('asks a custom constructor for every path, checking the name first and the path it gives', () => {
    const asked: string[] = [];
    const paths = discoveryPaths(undefined, {
      getBasePath: () => '/apps',
      getPathForInstances: (name: string) => {
        asked.push(name);
        return name === 'broken' ? 'relative/path' : `/apps/${name}/instances`;
      },
    });
    expect(paths.basePath).toBe('/apps');
    expect(paths.pathForName('orders')).toBe('/apps/orders/instances');
    expect(() => paths.pathForName('a/b')).toThrow(InvalidDiscoveryArgumentError);
    expect(() => paths.pathForName('broken')).toThrow(/pathConstructor: gave an invalid instances path/);
    expect(asked).toEqual(['orders', 'broken']);
  });

  it('refuses both or neither of basePath and pathConstructor, and a constructor that is not one', () => {
    const custom = { getBasePath: () => '/apps', getPathForInstances: () => '/apps/x' };
    expect(() => discoveryPaths('/services', custom)).toThrow(
      /^pathConstructor: must not be given together with basePath/,
    );
    expect(() => discoveryPaths(undefined, undefined)).toThrow(InvalidDiscoveryArgumentError);
    expect(() => discoveryPaths(undefined, { getBasePath: () => '/apps' })).toThrow(/getPathForInstances/);
    expect(() => discoveryPaths(undefined, null)).toThrow(InvalidDiscoveryArgumentError);
    expect(() => discoveryPaths(undefined, { ...custom, getBasePath: () => '/' })).toThrow(
      InvalidDiscoveryArgumentError,
    );
  });
});
