// Packs every publishable package, installs each alone (with only its own workspace dependencies)
// into an empty temporary project, and both import()s and require()s it, the way a user would. A package
// with a `bin` also has each executable run from node_modules/.bin, as `npx <name>` would.
// Then the set (scripts/pack-set.mjs): every tarball installed together, the root README's quick start run
// there against a real ZooKeeper server, and `npm publish --dry-run` of each package without a warning.
// The packages must be built first (`npx turbo run build`).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkInstalledSet, dryRunPublish } from './pack-set.mjs';

const root = resolve(import.meta.dirname, '..');
/** Every package under packages/ that is published (not private), so a new one is tested without a list. */
const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .filter((entry) => {
    try {
      return (
        JSON.parse(readFileSync(join(root, 'packages', entry.name, 'package.json'), 'utf8')).private !== true
      );
    } catch {
      return false; // no package.json: not a package
    }
  })
  .map((entry) => entry.name)
  .sort();
const work = mkdtempSync(join(tmpdir(), 'zkwire-pack-'));
const tarballs = {};

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

for (const pkg of packages) {
  const dir = join(root, 'packages', pkg);
  const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], dir));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  tarballs[manifest.name] = { file: join(work, out[0].filename), manifest };
}

/** The executable starts, prints its help (exit 0) and refuses an unknown command as a usage error (exit 2). */
function checkBin(project, bin) {
  const file = join(project, 'node_modules', '.bin', bin);
  const help = spawnSync(file, ['--help'], { cwd: project, encoding: 'utf8' });
  if (help.status !== 0 || !/Usage/.test(help.stdout)) {
    throw new Error(`${bin} --help: exit ${help.status}: ${help.stderr || help.stdout}`);
  }
  const usage = spawnSync(file, ['no-such-command'], { cwd: project, encoding: 'utf8' });
  if (usage.status !== 2) throw new Error(`${bin} no-such-command: exit ${usage.status}, expected 2`);
}

let failures = 0;
for (const [name, { file, manifest }] of Object.entries(tarballs)) {
  const project = mkdtempSync(join(work, 'app-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  // Sibling packages come from their tarballs too: nothing from this repository leaks in by a link.
  const siblings = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
    .filter((dep) => tarballs[dep])
    .flatMap((dep) => {
      const sib = tarballs[dep];
      const deeper = Object.keys(sib.manifest.dependencies ?? {})
        .filter((d) => tarballs[d])
        .map((d) => tarballs[d].file);
      return [...deeper, sib.file];
    });
  try {
    run(
      'npm',
      ['install', '--no-fund', '--no-audit', '--loglevel=error', ...new Set(siblings), file],
      project,
    );
    const esm = `import * as m from '${name}'; if (Object.keys(m).length === 0) throw new Error('empty ESM export'); console.log('esm', Object.keys(m).length);`;
    const cjs = `const m = require('${name}'); if (Object.keys(m).length === 0) throw new Error('empty CJS export'); console.log('cjs', Object.keys(m).length);`;
    const e = run('node', ['--input-type=module', '-e', esm], project).trim();
    const c = run('node', ['-e', cjs], project).trim();
    const nativeDeps = run('npm', ['ls', '--all', '--parseable'], project)
      .split('\n')
      .filter((p) => /binding\.gyp$/.test(p));
    if (nativeDeps.length) throw new Error(`native build in dependencies: ${nativeDeps.join(', ')}`);
    const bins = Object.keys(
      typeof manifest.bin === 'string' ? { [name]: manifest.bin } : (manifest.bin ?? {}),
    );
    for (const bin of bins) checkBin(project, bin);
    console.log(`pack-test: ${name}: ${e}, ${c}${bins.length ? `, bin ${bins.join(' ')}` : ''}`);
  } catch (error) {
    failures += 1;
    console.error(`pack-test: ${name} FAILED: ${error.stderr || error.message}`);
  }
}
for (const pkg of packages) {
  const problems = await dryRunPublish(join(root, 'packages', pkg));
  if (problems.length === 0) {
    console.log(`pack-test: ${pkg}: npm publish --dry-run clean`);
  } else {
    failures += 1;
    console.error(`pack-test: ${pkg}: npm publish --dry-run FAILED:\n  ${problems.join('\n  ')}`);
  }
}

try {
  await checkInstalledSet({
    root,
    work,
    tarballFiles: Object.values(tarballs).map((tarball) => tarball.file),
    readmeFile: join(root, 'README.md'),
    log: (line) => console.log(line),
  });
  console.log(`pack-test: the set of ${packages.length} tarballs installed together and ran the quick start`);
} catch (error) {
  failures += 1;
  console.error(`pack-test: the installed set FAILED: ${error.stderr || error.message}`);
}

rmSync(work, { recursive: true, force: true });
process.exit(failures ? 1 : 0);
