/**
 * Our client as users run it: built, not through the TypeScript loader the bench itself runs under. tsx
 * keeps function names by wrapping every named closure (`__name`), and a connection makes several: a cost
 * the published build (tsup, which is esbuild) does not have, and node-zookeeper-client, the native package
 * and Java all run as published. So before the first cell the client's sources are bundled the way tsup
 * builds them, into a temporary file the workers import (`OURS_MODULE_ENV`); `--ours-from source` keeps the
 * sources. Outside this repository (no sources next to the bench) the installed package, already built, is
 * what runs.
 *
 * The recipes and queues (the scenarios that run ours against Curator) are built the same way, next to the
 * client, each importing that one client bundle rather than carrying a copy: a recipe's session is then the
 * very client the throughput cells measure, as it is for a user who installs the three packages.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** The worker's environment variable naming the module to load as our client (driver-ours.ts). */
export const OURS_MODULE_ENV = 'ZKWIRE_BENCH_OURS_MODULE';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const clientEntry = join(repoRoot, 'packages/zk-wire-client/src/index.ts');
const CLIENT_FILE = 'zk-wire-client.mjs';

/** Our packages built next to the client, by their names, and the file each is bundled into. */
const companions = {
  '@zkwire/recipes': { entry: join(repoRoot, 'packages/recipes/src/index.ts'), file: 'recipes.mjs' },
  '@zkwire/queues': { entry: join(repoRoot, 'packages/queues/src/index.ts'), file: 'queues.mjs' },
} as const;
type Companion = keyof typeof companions;

/** The module the workers load (undefined: the package by name), and how it was made, for the report. */
export interface OursBuild {
  module: string | undefined;
  detail: string;
}

/** Loads our client: the module built for this run, or the package by name when none was built. */
export function importOurs(module: string | undefined): Promise<typeof import('@zkwire/zk-wire-client')> {
  if (module === undefined || module === '') return import('@zkwire/zk-wire-client');
  return import(pathToFileURL(module).href);
}

/**
 * Loads our recipes or queues: built next to the client `module` (sharing it), or the package by name when
 * no client was built.
 */
export function importOursCompanion<Name extends Companion>(
  name: Name,
  module: string | undefined,
): Promise<
  Name extends '@zkwire/recipes' ? typeof import('@zkwire/recipes') : typeof import('@zkwire/queues')
> {
  if (module === undefined || module === '') return import(name);
  return import(pathToFileURL(join(dirname(module), companions[name].file)).href);
}

/**
 * Bundles the client's sources into a temporary ESM file (removed when this process exits) and returns its
 * path; or, without sources here, undefined (the installed package is then loaded by name).
 */
export async function buildOurs(): Promise<OursBuild> {
  if (!existsSync(clientEntry)) return { module: undefined, detail: 'the installed package' };
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'zkwire-bench-ours-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, CLIENT_FILE);
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Resolves @zkwire/jute-codec to its sources too, as the bench's own imports do.
    tsconfig: join(repoRoot, 'apps/bench/tsconfig.json'),
    logLevel: 'silent',
  } as const;
  await build({ ...common, entryPoints: [clientEntry], outfile });
  // The client is their peer dependency: each imports the bundle above instead of bundling its own copy.
  const sharedClient: Plugin = {
    name: 'zkwire-shared-client',
    setup(on) {
      on.onResolve({ filter: /^@zkwire\/zk-wire-client$/ }, () => ({
        path: `./${CLIENT_FILE}`,
        external: true,
      }));
    },
  };
  for (const { entry, file } of Object.values(companions)) {
    await build({ ...common, entryPoints: [entry], outfile: join(dir, file), plugins: [sharedClient] });
  }
  return {
    module: outfile,
    detail:
      'built from its sources by esbuild, as tsup publishes it; the recipes and queues too, on that client',
  };
}
