/**
 * Apache Curator (CuratorBench.java) for the recipe, queue and cache scenarios (cacheScale too), and
 * curator-x-async's ModeledFramework for the modeled ones (CuratorModeled.java), compiled as the Java driver is.
 */
import type { Contender } from './contender.js';
import { compileDriver } from './java.js';

export const curator: Contender = {
  id: 'curator',
  label: 'Apache Curator (Java)',
  short: 'curator',
  color: '#8e5bb5',
  supports: (kind, _op, scenario) => kind === 'recipe' || (kind === 'scale' && scenario === 'cacheScale'),
  prepare: (log) => {
    log('compiling the Curator driver ...');
    return compileDriver(
      ['CuratorBench.java', 'CuratorScale.java', 'CuratorModeled.java', 'ScaleMemory.java'],
      'CuratorBench',
      (testing) => testing.findCurator({ modules: ['curator-x-async'] }),
      (version) => `Apache Curator ${version} recipes and curator-x-async`,
    );
  },
};
