/**
 * An ensemble for a whole test file, with the clients its tests open: started by the file's `beforeAll`,
 * stopped by its `afterAll`, clients first. It takes no test framework's hooks itself, so this package does not
 * depend on one:
 *
 *   const fixture = ensembleFixture({ size: 3 });
 *   beforeAll(fixture.start, 120_000);
 *   afterAll(fixture.stop);
 */
import { type Ensemble, type StartEnsembleOptions, startEnsemble } from './ensemble.js';

/** What {@link EnsembleFixture.track} closes: a client, a recipe, anything with a `close`. */
export interface Closable {
  close(): unknown;
}

/** A test file's ensemble and the resources its tests opened on it. */
export interface EnsembleFixture {
  /** The running ensemble; throws before {@link start} resolved. */
  readonly ensemble: Ensemble;
  /** Starts the ensemble (a `beforeAll` callback: bound, takes no arguments). */
  start(): Promise<void>;
  /**
   * Closes every tracked resource, newest first and ignoring their errors, then stops the ensemble (an
   * `afterAll` callback). Safe when {@link start} never ran or failed.
   */
  stop(): Promise<void>;
  /** Registers `resource` to be closed by {@link stop}, and returns it. */
  track<T extends Closable>(resource: T): T;
}

/** The fixture of an ensemble started with `options` (default: three members). */
export function ensembleFixture(options: StartEnsembleOptions = {}): EnsembleFixture {
  let ensemble: Ensemble | undefined;
  const tracked: Closable[] = [];
  return {
    get ensemble() {
      if (ensemble === undefined)
        throw new Error('ensembleFixture: not started (read it inside a test or hook)');
      return ensemble;
    },
    start: async () => {
      if (ensemble !== undefined) throw new Error('ensembleFixture: already started');
      ensemble = await startEnsemble(options);
    },
    stop: async () => {
      // Newest first, as `using` would: a client closes before the proxy it was opened through.
      for (const resource of tracked.splice(0).reverse()) {
        try {
          await resource.close();
        } catch {
          // Closed by its test already, or its session ended with a member: nothing is left to release.
        }
      }
      await ensemble?.[Symbol.asyncDispose]();
      ensemble = undefined;
    },
    track(resource) {
      if (typeof resource?.close !== 'function')
        throw new TypeError('ensembleFixture.track: no close() to call');
      tracked.push(resource);
      return resource;
    },
  };
}
