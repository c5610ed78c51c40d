/**
 * Our client through its public API, as users run it: built, not through tsx (which wraps every named closure
 * to keep its name, a cost the published build does not have). Before the first cell the sources are bundled
 * as tsup builds them, the recipes, queues and modeled importing that one client bundle; the workers find it
 * through OURS_MODULE_ENV. Outside this repository the installed packages run.
 *
 * `baseline` is the same client at `--baseline REV`: its packages are taken out of git and bundled the same
 * way, so that a change is measured against its parent in one run, the two alternating within each round.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { message, withTimeout } from '../measure/window.js';
import type { Contender } from './contender.js';
import type { DriverFactory } from './driver.js';
import { nodeWorkerCommand } from './driver-protocol.js';

const OURS_MODULE_ENV = 'ZKWIRE_BENCH_OURS_MODULE';
const BASELINE_MODULE_ENV = 'ZKWIRE_BENCH_BASELINE_MODULE';
/** the commit `--baseline` names (main.ts sets it before the contenders get ready) */
export const BASELINE_REV_ENV = 'ZKWIRE_BENCH_BASELINE_REV';
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const entry = (root: string, pkg: string) => join(root, `packages/${pkg}/src/index.ts`);

type Client = typeof import('@zkwire/zk-wire-client');

/** A temporary folder, removed at exit. */
function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `zkwire-bench-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Each package and the bundles it imports instead of a copy of its own. */
const packages = [
  ['zk-wire-client', []],
  ['recipes', ['zk-wire-client']],
  ['queues', ['zk-wire-client']],
  ['modeled', ['zk-wire-client', 'recipes']],
] as const;

/** Bundles the packages of the tree at `root` into a temporary folder; returns its client file. */
async function build(root: string): Promise<string | undefined> {
  if (!existsSync(entry(root, 'zk-wire-client'))) return undefined;
  const esbuild = await import('esbuild');
  const dir = scratch('ours');
  for (const [pkg, peers] of packages) {
    const shared: import('esbuild').Plugin = {
      name: 'shared',
      setup: (on) =>
        on.onResolve({ filter: /^@zkwire\/[a-z-]+$/ }, ({ path }) =>
          (peers as readonly string[]).includes(path.slice(8))
            ? { path: `./${path.slice(8)}.mjs`, external: true }
            : undefined,
        ),
    };
    await esbuild.build({
      ...{ bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' },
      tsconfig: join(root, 'apps/bench/tsconfig.json'),
      entryPoints: [entry(root, pkg)],
      outfile: join(dir, `${pkg}.mjs`),
      plugins: [shared],
    });
  }
  return join(dir, 'zk-wire-client.mjs');
}

/** One of our packages as the workers load it: this run's bundle, or the installed package. */
function load(pkg: (typeof packages)[number][0]) {
  const built = process.env[OURS_MODULE_ENV];
  return import(built ? pathToFileURL(join(dirname(built), `${pkg}.mjs`)).href : `@zkwire/${pkg}`);
}

export async function loadOurs() {
  const [client, recipes, queues] = await Promise.all([
    load('zk-wire-client'),
    load('recipes'),
    load('queues'),
  ]);
  return {
    client: client as Client,
    recipes: recipes as typeof import('@zkwire/recipes'),
    queues: queues as typeof import('@zkwire/queues'),
  };
}

/** Our client and `@zkwire/modeled` over it, for the modeled scenarios only (other cells never load it). */
export async function loadModeled() {
  const [client, modeled] = await Promise.all([load('zk-wire-client'), load('modeled')]);
  return { client: client as Client, modeled: modeled as typeof import('@zkwire/modeled') };
}

/** A driver factory over the client bundle `env` names, loaded once per worker. */
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
    return {
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
    if (mod instanceof Error || typeof (mod as { client?: Client }).client?.connect !== 'function')
      return { ok: false, reason: `@zkwire/zk-wire-client does not load: ${String(mod)}` };
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
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', repoRoot, ...args], { maxBuffer: 1 << 30 });
      const commit = git('rev-parse', '--short', `${rev}^{commit}`).toString().trim();
      // its packages and TypeScript settings; the repository's node_modules serve their third-party imports
      const tree = scratch('baseline-tree');
      const tar = git(
        'archive',
        '--format=tar',
        commit,
        'packages',
        'tsconfig.base.json',
        'apps/bench/tsconfig.json',
      );
      execFileSync('tar', ['-x', '-C', tree], { input: tar });
      symlinkSync(join(repoRoot, 'node_modules'), join(tree, 'node_modules'));
      const module = await build(tree);
      if (!module) return { ok: false, reason: `${rev} has no packages/zk-wire-client` };
      process.env[BASELINE_MODULE_ENV] = module;
      const detail = `@zkwire/zk-wire-client at ${commit} (${rev}), built like ours`;
      return { ok: true, detail, command: nodeWorkerCommand };
    } catch (error) {
      return { ok: false, reason: `${rev} does not build: ${message(error)}` };
    }
  },
};
