// The packed packages as one set, the way a user gets them from the registry: every tarball installed
// together into an empty project with `npm install <tarballs>` (no workspace links), then the root README's
// quick start run in that project against a real ZooKeeper server, and the `zkwire` executable against the
// same server. And `npm publish --dry-run` of each package, which must print no warning about the package.
// scripts/pack-test.mjs calls this after packing; the pure pieces are tested by scripts/pack-set.test.ts.
import { execFile } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { extractFences } from './check-examples.mjs';

const exec = promisify(execFile);

/** The literal connect string of the README's examples, replaced by the test server's. */
export const EXAMPLE_HOST = '127.0.0.1:2181';

/** How long one quick start block may take (a JVM on a loaded machine answers slowly). */
const BLOCK_TIMEOUT_MS = 60_000;

/**
 * The JavaScript blocks of the README's "Quick start" section (up to the next heading of its level or
 * higher), each with the module extension it runs as and the chroot it needs (```js chroot=/app).
 */
export function quickStartBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => /^#{1,6}\s+quick\s*start\b/i.test(line));
  if (start === -1) return [];
  const level = /^#+/.exec(lines[start])[0].length;
  let end = lines.length;
  let inFence = false;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(lines[i])) inFence = !inFence;
    const heading = /^(#{1,6})\s/.exec(lines[i]);
    if (!inFence && heading && heading[1].length <= level) {
      end = i;
      break;
    }
  }
  const ext = { js: 'mjs', mjs: 'mjs', javascript: 'mjs', cjs: 'cjs' };
  return extractFences(lines.slice(start, end).join('\n'))
    .filter((fence) => ext[fence.lang] !== undefined && !fence.flags.includes('no-run'))
    .map((fence) => ({
      ext: ext[fence.lang],
      chroot: fence.flags.find((flag) => flag.startsWith('chroot='))?.slice('chroot='.length),
      code: fence.code,
    }));
}

/** The `@zkwire/*` packages of a project's node_modules that are links, not installed copies. */
export function linkedPackages(project) {
  const scope = join(project, 'node_modules', '@zkwire');
  return readdirSync(scope)
    .filter((name) => lstatSync(join(scope, name)).isSymbolicLink())
    .map((name) => `@zkwire/${name}`);
}

/**
 * The warnings and errors `npm publish --dry-run` printed about the package. The one that says a real publish
 * would need a login is about this machine, not the package, and is left out.
 */
export function publishProblems(output) {
  return output
    .split('\n')
    .filter((line) => /^npm (warn|error|ERR!)/i.test(line))
    .filter((line) => !/requires you to be logged in/.test(line));
}

/** `npm publish --dry-run` in `dir`; its problems (none when clean). */
export async function dryRunPublish(dir) {
  try {
    const { stdout, stderr } = await exec('npm', ['publish', '--dry-run'], { cwd: dir, encoding: 'utf8' });
    return publishProblems(`${stdout}\n${stderr}`);
  } catch (error) {
    return [`npm publish --dry-run failed: ${error.stderr || error.message}`];
  }
}

async function runNode(project, file, env) {
  try {
    return await exec(process.execPath, [file], {
      cwd: project,
      encoding: 'utf8',
      timeout: BLOCK_TIMEOUT_MS,
      env: { ...process.env, ...env },
    });
  } catch (error) {
    throw new Error(
      `node ${file}: ${error.killed ? 'timed out' : `exit ${error.code}`}\n${error.stderr || ''}`,
    );
  }
}

/** Creates `chroot` and its parents on the server, through the installed `zkwire`. */
async function createChroot(project, connectString, chroot) {
  const zkwire = join(project, 'node_modules', '.bin', 'zkwire');
  const parts = chroot.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const path = `/${parts.slice(0, i).join('/')}`;
    const { stdout } = await exec(zkwire, ['-s', connectString, 'stat', path]).catch(() => ({ stdout: '' }));
    if (stdout === '') await exec(zkwire, ['-s', connectString, 'create', path]);
  }
}

/**
 * Installs every tarball together into a new project under `work`, then runs the quick start of
 * `readmeFile` and `zkwire` there against a server from the repository's built `@zkwire/testing`.
 * Throws what failed; logs what ran.
 */
export async function checkInstalledSet({ root, work, tarballFiles, readmeFile, log }) {
  const project = mkdtempSync(join(work, 'set-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'quickstart', private: true }));
  await exec('npm', ['install', '--no-fund', '--no-audit', '--loglevel=error', ...tarballFiles], {
    cwd: project,
    encoding: 'utf8',
  });
  const links = linkedPackages(project);
  if (links.length > 0) throw new Error(`installed as links, not from their tarballs: ${links.join(', ')}`);

  const blocks = quickStartBlocks(readFileSync(readmeFile, 'utf8'));
  if (blocks.length === 0)
    throw new Error(`${readmeFile} has no JavaScript block under a "Quick start" heading`);

  const testing = await import(pathToFileURL(join(root, 'packages/testing/dist/index.js')).href);
  const server = await testing.startZooKeeper();
  try {
    for (const [index, block] of blocks.entries()) {
      if (block.chroot !== undefined) await createChroot(project, server.connectString, block.chroot);
      const file = `quickstart-${index + 1}.${block.ext}`;
      writeFileSync(join(project, file), block.code.replaceAll(EXAMPLE_HOST, server.connectString));
      const { stdout } = await runNode(project, file, {});
      log(
        `pack-test: quick start block ${index + 1} (${block.ext}) ran: ${stdout.trim().split('\n')[0] ?? ''}`,
      );
    }
    const zkwire = join(project, 'node_modules', '.bin', 'zkwire');
    await exec(zkwire, ['-s', server.connectString, 'create', '/pack-test', 'installed']);
    const { stdout } = await exec(zkwire, ['-s', server.connectString, 'get', '/pack-test']);
    if (stdout !== 'installed\n') throw new Error(`zkwire get /pack-test printed ${JSON.stringify(stdout)}`);
    log('pack-test: zkwire from the installed set created and read a node');
  } finally {
    await server[Symbol.asyncDispose]();
  }
}
