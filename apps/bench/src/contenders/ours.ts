/**
 * Our client, `@zkwire/zk-wire-client`, through its public API, as users run it: built, not through the
 * TypeScript loader the bench runs under (tsx wraps every named closure to keep its name, a cost the
 * published build does not have). Before the first cell the client's sources are bundled the way tsup builds
 * them, with the recipes, queues and modeled next to it importing that one client bundle; the workers find
 * the bundle through OURS_MODULE_ENV. Outside this repository the installed packages run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withTimeout } from '../measure/window.js';
import type { Contender } from './contender.js';
import type { ClientDriver, DriverFactory } from './driver.js';
import { nodeWorkerCommand } from './node-worker.js';

const OURS_MODULE_ENV = 'ZKWIRE_BENCH_OURS_MODULE';
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const entry = (pkg: string) => join(repoRoot, `packages/${pkg}/src/index.ts`);
const bundles = {
  client: 'zk-wire-client.mjs',
  recipes: 'recipes.mjs',
  queues: 'queues.mjs',
  modeled: 'modeled.mjs',
} as const;

type Client = typeof import('@zkwire/zk-wire-client');
type Recipes = typeof import('@zkwire/recipes');
type Queues = typeof import('@zkwire/queues');
type Modeled = typeof import('@zkwire/modeled');

/** Bundles our packages into a temporary folder (removed at exit); returns its client file. */
async function build(): Promise<string | undefined> {
  if (!existsSync(entry('zk-wire-client'))) return undefined;
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'zkwire-bench-ours-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(repoRoot, 'apps/bench/tsconfig.json'),
    logLevel: 'silent',
  } as const;
  await build({ ...common, entryPoints: [entry('zk-wire-client')], outfile: join(dir, bundles.client) });
  // the client is the recipes', queues' and modeled's peer, the recipes modeled's: each imports the bundles
  // above, not a copy of its own
  const external = (filter: RegExp, file: string): import('esbuild').Plugin => ({
    name: `shared-${file}`,
    setup(on) {
      on.onResolve({ filter }, () => ({ path: `./${file}`, external: true }));
    },
  });
  const sharedClient = external(/^@zkwire\/zk-wire-client$/, bundles.client);
  const sharedRecipes = external(/^@zkwire\/recipes$/, bundles.recipes);
  for (const pkg of ['recipes', 'queues'] as const) {
    await build({
      ...common,
      entryPoints: [entry(pkg)],
      outfile: join(dir, bundles[pkg]),
      plugins: [sharedClient],
    });
  }
  await build({
    ...common,
    entryPoints: [entry('modeled')],
    outfile: join(dir, bundles.modeled),
    plugins: [sharedClient, sharedRecipes],
  });
  return join(dir, bundles.client);
}

/** One of our packages as the workers load it: this run's bundle, or the installed package. */
function load(file: string, pkg: string) {
  const built = process.env[OURS_MODULE_ENV];
  return built ? import(pathToFileURL(join(dirname(built), file)).href) : import(pkg);
}

/** Our client, recipes and queues as the workers load them: this run's bundles, or the installed packages. */
export async function loadOurs(): Promise<{ client: Client; recipes: Recipes; queues: Queues }> {
  const [client, recipes, queues] = await Promise.all([
    load(bundles.client, '@zkwire/zk-wire-client') as Promise<Client>,
    load(bundles.recipes, '@zkwire/recipes') as Promise<Recipes>,
    load(bundles.queues, '@zkwire/queues') as Promise<Queues>,
  ]);
  return { client, recipes, queues };
}

/** Our client and `@zkwire/modeled` over it, for the modeled scenarios only (other cells never load it). */
export async function loadModeled(): Promise<{ client: Client; modeled: Modeled }> {
  const [client, modeled] = await Promise.all([
    load(bundles.client, '@zkwire/zk-wire-client') as Promise<Client>,
    load(bundles.modeled, '@zkwire/modeled') as Promise<Modeled>,
  ]);
  return { client, modeled };
}

// once per worker: the session scenario opens hundreds of sessions
let loading: Promise<Client> | undefined;

const connect: DriverFactory = async (connectString) => {
  loading ??= loadOurs().then((m) => m.client);
  const mod = await loading;
  const client = await withTimeout(
    mod.connect({ connectString, sessionTimeoutMs: 30_000 }),
    10_000,
    'connect',
  );
  const driver: ClientDriver = {
    getData: (path, ok, fail) => void client.getData(path).then(ok, fail),
    exists: (path, ok, fail) => void client.exists(path).then(ok, fail),
    setData: (path, data, ok, fail) => void client.setData(path, data).then(ok, fail),
    create: (path, data, ok, fail) => void client.create(path, data).then(ok, fail),
    delete: (path, ok, fail) => void client.delete(path).then(ok, fail),
    getChildren: (path, ok, fail) => void client.getChildren(path).then(ok, fail),
    multiSetData: (paths, data, ok, fail) =>
      void client.multi(paths.map((path) => mod.op.setData(path, data))).then(ok, fail),
    watchData: (path, onEvent, ok, fail) => void client.getData(path, { watch: onEvent }).then(ok, fail),
    close: () => client.close(),
  };
  return driver;
};

export const ours: Contender = {
  id: 'ours',
  label: 'ours (@zkwire/zk-wire-client)',
  short: 'ours',
  color: '#2b7bb9',
  supports: () => true,
  connect,
  async prepare() {
    const module = await build();
    if (module) process.env[OURS_MODULE_ENV] = module;
    const mod = await loadOurs().catch((error: unknown) => error);
    if (mod instanceof Error || typeof (mod as { client?: Client }).client?.connect !== 'function') {
      return { ok: false, reason: `@zkwire/zk-wire-client does not load: ${String(mod)}` };
    }
    const how = module ? 'built by esbuild from its sources, as tsup publishes it' : 'the installed package';
    return { ok: true, detail: `@zkwire/zk-wire-client (${how})`, command: nodeWorkerCommand };
  },
};
