/**
 * Where a discovery's services live (curator-x-discovery 5.6's `DiscoveryPathConstructor`, CURATOR-457):
 * the node whose children are the service names, and for each service the node whose children are its
 * instances. Curator's default (`DiscoveryPathConstructorImpl`) is `<basePath>` and `<basePath>/<name>`.
 */
import { InvalidDiscoveryArgumentError } from './errors.js';
import { validateBasePath, validateSegment } from './validate.js';

/**
 * A custom layout, with Curator's method names so a Java constructor ports line by line. Both paths must be
 * absolute ZooKeeper paths (not `/`); `getPathForInstances` is asked again for every path built.
 */
export interface DiscoveryPathConstructor {
  /** The parent of every service name (`queryForNames` lists its children). */
  getBasePath(): string;
  /** The parent of every instance of `serviceName`. */
  getPathForInstances(serviceName: string): string;
}

/** The checked layout a discovery uses. */
export interface DiscoveryPaths {
  readonly basePath: string;
  /** The instances' parent of a service (its name checked as one path segment). */
  pathForName(name: string): string;
}

/** Curator's standard layout: `<basePath>/<name>`. */
function standardPaths(basePath: string): DiscoveryPaths {
  return { basePath, pathForName: (name) => `${basePath}/${validateSegment(name, 'name')}` };
}

/**
 * The layout from a discovery's options: exactly one of `basePath` (the standard layout) and `pathConstructor`.
 * Throws InvalidDiscoveryArgumentError for a bad or missing one before anything is sent.
 */
export function discoveryPaths(basePath: unknown, pathConstructor: unknown): DiscoveryPaths {
  if (pathConstructor === undefined) return standardPaths(validateBasePath(basePath));
  if (basePath !== undefined) {
    throw new InvalidDiscoveryArgumentError(
      'pathConstructor',
      'must not be given together with basePath: give one of the two',
    );
  }
  const custom = pathConstructor as Partial<DiscoveryPathConstructor> | null;
  if (
    typeof custom !== 'object' ||
    custom === null ||
    typeof custom.getBasePath !== 'function' ||
    typeof custom.getPathForInstances !== 'function'
  ) {
    throw new InvalidDiscoveryArgumentError(
      'pathConstructor',
      'must be an object with getBasePath() and getPathForInstances(serviceName)',
    );
  }
  const layout = custom as DiscoveryPathConstructor;
  return {
    basePath: validateBasePath(layout.getBasePath()),
    pathForName(name) {
      const path = layout.getPathForInstances(validateSegment(name, 'name'));
      try {
        return validateBasePath(path);
      } catch (error) {
        throw new InvalidDiscoveryArgumentError(
          'pathConstructor',
          `gave an invalid instances path for ${name}: ${(error as Error).message}`,
        );
      }
    },
  };
}
