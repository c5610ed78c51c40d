/**
 * Drives real curator-x-discovery (5.9.0 from Maven Central by default, `ZKWIRE_CURATOR_VERSION` for another,
 * `debian` for Debian's 5.4.0 under /usr/share/java, with Jackson) from a test: DiscoveryDriver.java and
 * Details.java, compiled and run by `@zkwire/testing`'s line-driver harness on a server (protocol in
 * DiscoveryDriver.java).
 */
import { findCurator, type JavaLineDriver, readJavaSources, startJavaLineDriver } from '@zkwire/testing';

/** A running Java discovery driver: `call(op, ...args)`, `json`, its events, `close` and `kill`. */
export type DiscoveryDriver = JavaLineDriver;

/**
 * Where the driver's discoveries put instances: Curator's standard `<basePath>/<name>/<id>`, or through a
 * DiscoveryPathConstructor (Curator 5.6+) `<basePath>/<name>/instances/<id>`.
 */
export type DriverLayout = 'standard' | 'instances-child';

/** Whether the driver's Curator client compresses data (`enableCompression()`, Curator 5.8+). */
export type DriverCompression = 'plain' | 'gzip';

/** Compiles and starts the driver; resolves once it printed "ready". */
export function startDiscoveryDriver(
  connectString: string,
  basePath: string,
  layout: DriverLayout = 'standard',
  compression: DriverCompression = 'plain',
): Promise<DiscoveryDriver> {
  return startJavaLineDriver({
    sources: readJavaSources(import.meta.url, ['./DiscoveryDriver.java', './Details.java']),
    // Curator (client, framework, recipes, curator-x-discovery with Jackson), with its ZooKeeper client.
    classpath: findCurator({ modules: ['curator-x-discovery'] }).classpath,
    mainClass: 'DiscoveryDriver',
    args: [connectString, basePath, '30000', layout, compression],
    name: 'Java',
  });
}
