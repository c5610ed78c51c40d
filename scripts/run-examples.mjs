// Runs the code examples of the READMEs, each block as its own module on the real `node`, as a user pasting
// it into an empty file would. The test that drives it (scripts/test/readme-examples.test.ts) starts the
// server; this file only finds the blocks, turns each into a module and runs it.
//
// Conventions of a README block (the info string after the fence):
// - ```js / ```mjs: run as an ES module (.mjs); ```cjs: run as CommonJS (.cjs); ```ts: down-levelled by
//   esbuild for Node 20 (`await using` becomes a try/finally helper) and run as an ES module.
// - The connect string: every literal `127.0.0.1:2181` is replaced by the test server's `host:port`. A
//   chroot after it (`127.0.0.1:2181/app`) is kept, and is not created for the example unless the fence
//   names it (```js chroot=/app), so an example that needs a chroot says so.
// - ```ts no-run: a fragment that cannot run on its own (a TLS server, a vitest file); there should be few.
// - A block must end by itself (close its clients) with exit code 0 within the time limit.
//
// `@zkwire/*` imports resolve through node_modules (workspace links) to each package's built dist/.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { extractFences, guidePages } from './check-examples.mjs';

/** The literal connect string of the examples, replaced by the test server's. */
export const EXAMPLE_HOST = '127.0.0.1:2181';
export const NO_RUN = 'no-run';

const RUN_AS = {
  js: 'esm',
  mjs: 'esm',
  javascript: 'esm',
  cjs: 'cjs',
  ts: 'ts',
  typescript: 'ts',
  mts: 'ts',
};

/** The Markdown files whose examples run: the root README, every package's README and the user guide. */
export function findReadmes(root) {
  const files = [];
  if (existsSync(path.join(root, 'README.md'))) files.push('README.md');
  const packages = path.join(root, 'packages');
  for (const name of readdirSync(packages).sort()) {
    if (existsSync(path.join(packages, name, 'README.md'))) files.push(`packages/${name}/README.md`);
  }
  return [...files, ...guidePages(root)];
}

/**
 * The runnable examples of a Markdown text: JavaScript and TypeScript blocks not fenced `no-run`. Each adds
 * `runAs` ('esm' | 'cjs' | 'ts') and `chroots` (the paths its fence asks to exist, from `chroot=/a`).
 */
export function runnableExamples(markdown) {
  return extractFences(markdown)
    .filter((block) => RUN_AS[block.lang] && !block.flags.includes(NO_RUN))
    .map((block) => ({
      ...block,
      runAs: RUN_AS[block.lang],
      chroots: block.flags.filter((flag) => flag.startsWith('chroot=')).map((flag) => flag.slice(7)),
    }));
}

/** The blocks of a Markdown text fenced `no-run`, for the count the test keeps small. */
export function notRunExamples(markdown) {
  return extractFences(markdown).filter((block) => RUN_AS[block.lang] && block.flags.includes(NO_RUN));
}

/**
 * Writes `example` as a module under `outDir`, named after `markdownFile` and its line, with the connect
 * string pointed at `hostPort`. Returns the module's path.
 */
export async function writeExample(example, { markdownFile, outDir, hostPort }) {
  const code = example.code.replaceAll(EXAMPLE_HOST, hostPort);
  let source = code;
  if (example.runAs === 'ts') {
    // What a user gets from tsx or tsc with target ES2022: `await using` lowered for Node 20.
    const result = await transform(code, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: `${markdownFile}:${example.line}`,
      logLevel: 'silent',
    });
    source = result.code;
  }
  const slug = markdownFile.replace(/\.md$/i, '').replace(/[^A-Za-z0-9]+/g, '_');
  const file = path.join(outDir, `${slug}_L${example.line}.${example.runAs === 'cjs' ? 'cjs' : 'mjs'}`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(file, source);
  return file;
}

/**
 * Runs a module with `node` (this process's), from `cwd`. Resolves `{ code, signal, stdout, stderr,
 * timedOut }`; never rejects.
 */
export function runModule(file, { cwd, timeoutMs = 60_000, env = {} }) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        env: { ...process.env, ...env },
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          signal: error?.signal ?? null,
          timedOut: Boolean(error?.killed),
          stdout,
          stderr,
        });
      },
    );
  });
}

/** Why a run failed, for the test's message; undefined when it succeeded. */
export function describeFailure(run, { where, timeoutMs }) {
  if (run.code === 0 && !run.timedOut) return undefined;
  const reason = run.timedOut
    ? `did not end within ${timeoutMs} ms (does it close every client it opens?)`
    : `exited with code ${run.code ?? run.signal}`;
  return `${where}: the example ${reason}\n--- stderr ---\n${run.stderr.trim()}\n--- stdout ---\n${run.stdout.trim()}`;
}
