/**
 * Our client as users run it: built, not through the TypeScript loader the bench itself runs under. tsx
 * keeps function names by wrapping every named closure (`__name`), and a connection makes several: a cost
 * the published build (tsup, which is esbuild) does not have, and node-zookeeper-client, the native package
 * and Java all run as published. So before the first cell the client's sources are bundled the way tsup
 * builds them, into a temporary file the workers import (`OURS_MODULE_ENV`); `--ours-from source` keeps the
 * sources. Outside this repository (no sources next to the bench) the installed package, already built, is
 * what runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The worker's environment variable naming the module to load as our client (driver-ours.ts). */
export const OURS_MODULE_ENV = 'ZKWIRE_BENCH_OURS_MODULE';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const clientEntry = join(repoRoot, 'packages/zk-wire-client/src/index.ts');

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
 * Bundles the client's sources into a temporary ESM file (removed when this process exits) and returns its
 * path; or, without sources here, undefined (the installed package is then loaded by name).
 */
export async function buildOurs(): Promise<OursBuild> {
  if (!existsSync(clientEntry)) return { module: undefined, detail: 'the installed package' };
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'zkwire-bench-ours-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, 'zk-wire-client.mjs');
  await build({
    entryPoints: [clientEntry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Resolves @zkwire/jute-codec to its sources too, as the bench's own imports do.
    tsconfig: join(repoRoot, 'apps/bench/tsconfig.json'),
    logLevel: 'silent',
  });
  return { module: outfile, detail: 'built from its sources by esbuild, as tsup publishes it' };
}
