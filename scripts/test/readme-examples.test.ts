/**
 * Every JavaScript and TypeScript block of the READMEs (the root one and every package's) and of the user guide
 * (docs/guide/) runs, each as its own module on the real `node` (this process's: Node 20 in CI, the baseline),
 * against a real server: an example that does not run, or does not end by itself, fails here.
 * scripts/check-examples.mjs type-checks the same blocks.
 *
 * The connect-string convention: an example connects to the literal `127.0.0.1:2181`, which this test
 * replaces by its server's host:port before running the block. Between blocks the server's tree is emptied
 * (as a superuser, so nodes with restrictive ACLs go too), so every block starts on a fresh server; a chroot
 * is created only when the fence asks for it (```js chroot=/app). TypeScript blocks are down-levelled by
 * esbuild for Node 20 (`await using` included). Blocks fenced `no-run` are not run; there must be few.
 * `@zkwire/*` imports resolve to the packages' built dist/, which beforeAll brings up to date with turbo.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { connect, digestId, isNoNode } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeFailure,
  findReadmes,
  notRunExamples,
  runModule,
  runnableExamples,
  writeExample,
} from '../run-examples.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Under the repository, so that `@zkwire/*` resolves through its node_modules.
const outDir = path.join(root, '.tmp', 'readme-examples');
// Long enough for the examples of @zkwire/testing, which start ensembles of their own.
const RUN_TIMEOUT_MS = 120_000;
// Fragments that cannot run alone (a TLS or SASL server, a vitest file): kept few on purpose.
const MAX_NOT_RUN = 10;
const SUPER = 'super:readme-examples';

const readmes = findReadmes(root).map((file) => ({
  file,
  markdown: readFileSync(path.join(root, file), 'utf8'),
}));

// The packages the examples import, each built with what it depends on.
const imported = new Set(
  readmes.flatMap(({ markdown }) =>
    runnableExamples(markdown).flatMap((example) =>
      [...example.code.matchAll(/['"](@zkwire\/[a-z0-9-]+)/g)].map((match) => match[1]!),
    ),
  ),
);

let server: ZooKeeperServer;
let hostPort: string;

beforeAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    execFile(
      'npx',
      [
        'turbo',
        'run',
        'build',
        '--output-logs=errors-only',
        ...[...imported].map((name) => `--filter=${name}...`),
      ],
      { cwd: root, timeout: 280_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`build failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  const [user, password] = SUPER.split(':') as [string, string];
  server = await startZooKeeper({
    jvmFlags: [
      '-Dzookeeper.extendedTypesEnabled=true', // TTL nodes in the client's README
      `-Dzookeeper.DigestAuthenticationProvider.superDigest=${digestId(user, password)}`,
    ],
  });
  hostPort = server.connectString;
}, 300_000);

afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

/** Empties the server's tree (all but /zookeeper) and creates the chroots an example asks for. */
async function freshTree(chroots: string[]): Promise<void> {
  await using zk = await connect({
    connectString: hostPort,
    auth: [{ scheme: 'digest', credentials: SUPER }],
  });
  for (const child of await zk.getChildren('/')) {
    if (child === 'zookeeper') continue;
    try {
      await zk.deleteRecursive(`/${child}`);
    } catch (error) {
      if (!isNoNode(error)) throw error; // an ephemeral whose session ended meanwhile
    }
  }
  for (const chroot of chroots) await zk.ensurePath(chroot);
}

it(`at most ${MAX_NOT_RUN} README blocks are fenced no-run`, () => {
  const notRun = readmes.flatMap(({ file, markdown }) =>
    notRunExamples(markdown).map((block) => `${file}:${block.line}`),
  );
  expect(notRun.length, notRun.join('\n')).toBeLessThanOrEqual(MAX_NOT_RUN);
});

for (const { file, markdown } of readmes) {
  const examples = runnableExamples(markdown);
  if (examples.length === 0) continue;
  describe(file, () => {
    for (const example of examples) {
      const where = `${file}:${example.line}`;
      it(`${where} (${example.lang}) runs to its end on Node ${process.versions.node}`, {
        timeout: RUN_TIMEOUT_MS + 30_000,
      }, async () => {
        await freshTree(example.chroots);
        const module = await writeExample(example, { markdownFile: file, outDir, hostPort });
        const run = await runModule(module, { cwd: root, timeoutMs: RUN_TIMEOUT_MS });
        expect(describeFailure(run, { where, timeoutMs: RUN_TIMEOUT_MS })).toBeUndefined();
      });
    }
  });
}
