/**
 * Drives real Curator (`findCurator()`: 5.9.0 from Maven Central by default, `ZKWIRE_CURATOR_VERSION` for another,
 * `debian` for Debian's 5.4.0) from a test: DriverMain.java plus the handler sources, compiled and run by
 * `@zkwire/testing`'s line-driver harness on a server (protocol in DriverMain.java). Reusable by any recipe:
 * write a `DriverHandler` class anywhere under test/, pass its path here.
 */
import { basename } from 'node:path';
import { type JavaLineDriver, readJavaSources, startJavaLineDriver } from '@zkwire/testing';

/** Options of {@link startJavaDriver}. */
export interface JavaDriverOptions {
  connectString: string;
  /**
   * Handler sources, as paths relative to this folder (`'LockHandler.java'`,
   * `'drivers-elections/ElectionsHandler.java'`) or absolute. The first one's basename names the handler class
   * DriverMain loads; the others are helpers it may use.
   */
  handlers: string[];
  /** Curator's session timeout (default 30000). */
  sessionTimeoutMs?: number;
}

/** A running Java driver: `call(actor, op, ...args)`, its events, `waitForEvent`, `close`. */
export type JavaDriver = JavaLineDriver;

/** Compiles and starts the driver; resolves once it printed "ready" (its Curator client is connected). */
export async function startJavaDriver(options: JavaDriverOptions): Promise<JavaDriver> {
  const [handlerFile] = options.handlers;
  if (handlerFile === undefined) throw new TypeError('startJavaDriver: name at least one handler');
  const sources = readJavaSources(import.meta.url, [
    './DriverMain.java',
    './DriverHandler.java',
    ...options.handlers,
  ]);
  return startJavaLineDriver({
    sources,
    mainClass: 'DriverMain',
    args: [options.connectString, basename(handlerFile, '.java'), String(options.sessionTimeoutMs ?? 30_000)],
    name: 'Java',
  });
}
