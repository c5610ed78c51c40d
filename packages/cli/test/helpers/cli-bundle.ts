/**
 * Builds the `zkwire` executable for the tests: one esbuild bundle of src/bin.ts with the sibling packages
 * taken from source (the repository's TypeScript paths), so a test spawns a plain `node zkwire.mjs` in about
 * the time node itself takes to start, with no package build before the test run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** A built CLI: its file, and a way to remove it. */
export interface CliBundle {
  file: string;
  dir: string;
  remove(): void;
}

/** Bundles the CLI into a temporary directory. */
export async function buildCli(): Promise<CliBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'zkwire-cli-'));
  const file = join(dir, 'zkwire.mjs');
  await build({
    entryPoints: [join(root, 'packages/cli/src/bin.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile: file,
    tsconfig: join(root, 'tsconfig.base.json'),
    // commander is CommonJS and requires node's built-ins: give the ES module bundle a real `require`.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'error',
  });
  return {
    file,
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What a finished run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI once with `args` (and `input` on stdin), resolving when it exits. */
export function runCli(
  bundle: CliBundle,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle.file, ...args], {
      env: { ...process.env, NO_COLOR: '1', ZKWIRE_HISTORY: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`zkwire ${args.join(' ')} did not exit in time; stdout: ${stdout} stderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
