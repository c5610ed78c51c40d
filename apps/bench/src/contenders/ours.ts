/**
 * Our client, `@zkwire/zk-wire-client`, through its public API, as users run it: built, not through the
 * TypeScript loader the bench runs under (tsx wraps every named closure to keep its name, a cost the
 * published build does not have). Before the first cell the client's sources are bundled the way tsup builds
 * them, with the recipes, queues and modeled next to it importing that one client bundle; the workers find
 * the bundle through OURS_MODULE_ENV. Outside this repository the installed packages run.
 *
 * `baseline` is the same client at another commit (`--baseline REV`): its packages are taken out of git into a
 * temporary folder and bundled the same way, so that a change is measured against its parent in one run, the
 * two alternating within each round like any two contenders.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withTimeout } from '../measure/window.js';
import type { Contender } from './contender.js';
import type { ClientDriver, DriverFactory } from './driver.js';
import { nodeWorkerCommand } from './node-worker.js';

const OURS_MODULE_ENV = 'ZKWIRE_BENCH_OURS_MODULE';
const BASELINE_MODULE_ENV = 'ZKWIRE_BENCH_BASELINE_MODULE';
/** the commit `--baseline` names (main.ts sets it before the contenders get ready) */
export const BASELINE_REV_ENV = 'ZKWIRE_BENCH_BASELINE_REV';
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const entry = (root: string, pkg: string) => join(root, `packages/${pkg}/src/index.ts`);
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

/** A temporary folder, removed at exit. */
function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `zkwire-bench-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The packages and TypeScript settings of commit `rev`, in a folder of their own; the repository's
 * node_modules serve their third-party imports.
 */
function checkout(rev: string): string {
  const dir = scratch('baseline-tree');
  const tar = execFileSync(
    'git',
    [
      '-C',
      repoRoot,
      'archive',
      '--format=tar',
      rev,
      'packages',
      'tsconfig.base.json',
      'apps/bench/tsconfig.json',
    ],
    { maxBuffer: 1 << 30 },
  );
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Bundles the packages of the tree at `root` into a temporary folder; returns its client file. */
async function build(root: string): Promise<string | undefined> {
  if (!existsSync(entry(root, 'zk-wire-client'))) return undefined;
  const { build } = await import('esbuild');
  const dir = scratch('ours');
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'apps/bench/tsconfig.json'),
    logLevel: 'silent',
  } as const;
  await build({
    ...common,
    entryPoints: [entry(root, 'zk-wire-client')],
    outfile: join(dir, bundles.client),
  });
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
      entryPoints: [entry(root, pkg)],
      outfile: join(dir, bundles[pkg]),
      plugins: [sharedClient],
    });
  }
  await build({
    ...common,
    entryPoints: [entry(root, 'modeled')],
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

/** A driver factory over the client bundle that `env` names (once per worker: a scenario opens hundreds of sessions). */
function connectThrough(env: string): DriverFactory {
  let loading: Promise<Client> | undefined;
  return async (connectString) => {
    const built = process.env[env];
    loading ??= built ? import(pathToFileURL(built).href) : loadOurs().then((m) => m.client);
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
}

export const ours: Contender = {
  id: 'ours',
  label: 'ours (@zkwire/zk-wire-client)',
  short: 'ours',
  color: '#2b7bb9',
  supports: () => true,
  connect: connectThrough(OURS_MODULE_ENV),
  async prepare() {
    const module = await build(repoRoot);
    if (module) process.env[OURS_MODULE_ENV] = module;
    const mod = await loadOurs().catch((error: unknown) => error);
    if (mod instanceof Error || typeof (mod as { client?: Client }).client?.connect !== 'function') {
      return { ok: false, reason: `@zkwire/zk-wire-client does not load: ${String(mod)}` };
    }
    const how = module ? 'built by esbuild from its sources, as tsup publishes it' : 'the installed package';
    return { ok: true, detail: `@zkwire/zk-wire-client (${how})`, command: nodeWorkerCommand };
  },
};

/** The client-only scenarios: the recipe and cache cells load this tree's recipes, not the baseline's. */
const CLIENT_KINDS = new Set(['throughput', 'latency', 'session', 'watch', 'memory']);

export const baseline: Contender = {
  id: 'baseline',
  label: 'ours at --baseline',
  short: 'baseline',
  color: '#9ecae1',
  supports: (kind, _op, scenario) =>
    CLIENT_KINDS.has(kind) || scenario === 'sessions' || scenario === 'watchRestore',
  connect: connectThrough(BASELINE_MODULE_ENV),
  async prepare() {
    const rev = process.env[BASELINE_REV_ENV];
    if (!rev) return { ok: false, reason: 'no --baseline commit given' };
    try {
      const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--short', `${rev}^{commit}`])
        .toString()
        .trim();
      const module = await build(checkout(commit));
      if (!module) return { ok: false, reason: `${rev} has no packages/zk-wire-client` };
      process.env[BASELINE_MODULE_ENV] = module;
      return {
        ok: true,
        detail: `@zkwire/zk-wire-client at ${commit} (${rev}), built like ours`,
        command: nodeWorkerCommand,
      };
    } catch (error) {
      return {
        ok: false,
        reason: `${rev} does not build: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  },
};
