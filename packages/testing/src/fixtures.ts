/**
 * A server or an ensemble for a whole test file, with the clients its tests open: started by the file's
 * `beforeAll`, stopped by its `afterAll`, clients first. They take no test framework's hooks themselves, so
 * this package does not depend on one:
 *
 *   const fixture = ensembleFixture({ size: 3 });
 *   beforeAll(fixture.start, 120_000);
 *   afterAll(fixture.stop);
 */
import { type Ensemble, type StartEnsembleOptions, startEnsemble } from './ensemble.js';
import { type StartZooKeeperOptions, startZooKeeper, type ZooKeeperServer } from './server.js';

/** What {@link Fixture.track} closes: a client, a recipe, a proxy, anything with a `close`. */
export interface Closable {
  close(): unknown;
}

/** A test file's running thing (`T`) and the resources its tests opened on it. */
export interface Fixture<T> {
  /** Starts it (a `beforeAll` callback: bound, takes no arguments). */
  start(): Promise<void>;
  /**
   * Closes every tracked resource, newest first and ignoring their errors, then stops it (an `afterAll`
   * callback). Safe when {@link start} never ran or failed.
   */
  stop(): Promise<void>;
  /** Registers `resource` to be closed by {@link stop}, and returns it. */
  track<R extends Closable>(resource: R): R;
  /** The running thing; throws before {@link start} resolved. */
  readonly current: T;
}

/** A test file's ensemble: {@link Fixture} with the ensemble as `ensemble`. */
export interface EnsembleFixture extends Fixture<Ensemble> {
  /** The running ensemble; throws before `start` resolved. */
  readonly ensemble: Ensemble;
}

/** A test file's standalone server: {@link Fixture} with the server as `server`. */
export interface ServerFixture extends Fixture<ZooKeeperServer> {
  /** The running server; throws before `start` resolved. */
  readonly server: ZooKeeperServer;
}

function fixtureOf<T extends AsyncDisposable>(what: string, launch: () => Promise<T>): Fixture<T> {
  let running: T | undefined;
  const tracked: Closable[] = [];
  return {
    get current() {
      if (running === undefined) throw new Error(`${what}: not started (read it inside a test or hook)`);
      return running;
    },
    start: async () => {
      if (running !== undefined) throw new Error(`${what}: already started`);
      running = await launch();
    },
    stop: async () => {
      // Newest first, as `using` would: a client closes before the proxy it was opened through.
      for (const resource of tracked.splice(0).reverse()) {
        try {
          await resource.close();
        } catch {
          // Closed by its test already, or its session ended with a server: nothing is left to release.
        }
      }
      await running?.[Symbol.asyncDispose]();
      running = undefined;
    },
    track(resource) {
      if (typeof resource?.close !== 'function') throw new TypeError(`${what}.track: no close() to call`);
      tracked.push(resource);
      return resource;
    },
  };
}

/** The fixture of an ensemble started with `options` (default: three members). */
export function ensembleFixture(options: StartEnsembleOptions = {}): EnsembleFixture {
  const fixture = fixtureOf('ensembleFixture', () => startEnsemble(options));
  return Object.defineProperty(fixture, 'ensemble', { get: () => fixture.current }) as EnsembleFixture;
}

/** The fixture of a standalone server started with `options`. */
export function serverFixture(options: StartZooKeeperOptions = {}): ServerFixture {
  const fixture = fixtureOf('serverFixture', () => startZooKeeper(options));
  return Object.defineProperty(fixture, 'server', { get: () => fixture.current }) as ServerFixture;
}
