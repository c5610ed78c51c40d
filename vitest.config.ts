import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests import sibling packages from source, so no build is needed before a test run.
const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

const alias = [
  { find: /^@zkwire\/jute-codec\/internal$/, replacement: src('jute-codec', 'internal.ts') },
  { find: /^@zkwire\/jute-codec$/, replacement: src('jute-codec') },
  { find: /^@zkwire\/zk-wire-client$/, replacement: src('zk-wire-client') },
  { find: /^@zkwire\/recipes$/, replacement: src('recipes') },
  { find: /^@zkwire\/queues$/, replacement: src('queues') },
  { find: /^@zkwire\/modeled$/, replacement: src('modeled') },
  { find: /^@zkwire\/opentelemetry$/, replacement: src('opentelemetry') },
  { find: /^@zkwire\/discovery$/, replacement: src('discovery') },
  { find: /^@zkwire\/testing$/, replacement: src('testing') },
  { find: /^@zkwire\/cli$/, replacement: src('cli') },
  { find: /^@zkwire\/common$/, replacement: src('common') },
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          // Runs after the unit project: the two have different worker limits.
          sequence: { groupOrder: 1 },
          include: [
            'packages/*/test/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'scripts/test/*.test.ts',
            'test/matrix/**/*.test.ts',
          ],
          // Two cores: real JVMs (up to three per ensemble) share them with the test workers.
          maxWorkers: 2,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // `npm run test:matrix`: run once per ZooKeeper release (ZKWIRE_ZK_VERSION), not by `npm test`, which
          // runs these files in the integration project on the default release.
          name: 'matrix',
          include: ['test/matrix/**/*.test.ts', 'packages/zk-wire-client/test/conformance/**/*.test.ts'],
          maxWorkers: 2,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
