// Prints the root README's "Tested against" table from the reports of a run: the suite on the default release
// (.tmp/vitest-report.json), the matrix (.tmp/matrix/<version>.json) and the Curator 5.4.0 interop run
// (.tmp/curator-debian.json), with the machine and the commit (the run's time goes in the commit message).
// Usage: node scripts/tested-against.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

function counts(path) {
  if (!existsSync(path)) return undefined;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  let passed = 0;
  let failed = 0;
  const files = new Set();
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failed += 1;
    }
    files.add(file.name.replace(/^.*?(test\/matrix\/|packages\/)/, '$1'));
  }
  return { passed, failed, files: [...files] };
}

const cell = (c) => (c ? `${c.passed} passed, ${c.failed} failed` : 'not run');
const versionOrder = (a, b) => a.localeCompare(b, undefined, { numeric: true });
const matrix = existsSync('.tmp/matrix')
  ? readdirSync('.tmp/matrix')
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -5))
      .sort(versionOrder)
  : [];

let machine = cpus()[0]?.model ?? 'unknown CPU';
try {
  machine =
    execFileSync('lscpu', { encoding: 'utf8' })
      .match(/Model name:\s*(.+)/)?.[1]
      ?.trim() ?? machine;
} catch {
  // lscpu is Linux only
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();

const rows = [];
const suite = counts('.tmp/vitest-report.json');
rows.push(
  `| 3.9.5 (default) | the whole suite: every package, Curator 5.9.0 interop, ensembles, TLS, SASL | ${cell(suite)} |`,
);
for (const version of matrix) {
  const what =
    'smoke (every operation or its local refusal, watches, restore, TTL/container, mutex, queue, cache, digest, TLS), reconfig, conformance against the Java client of the same release';
  rows.push(`| ${version} | ${what} | ${cell(counts(`.tmp/matrix/${version}.json`))} |`);
}
const curator = counts('.tmp/curator-debian.json');
console.log(`Run on ${machine}, ${cpus().length} cores, at commit ${commit}:

| ZooKeeper | what was checked | tests |
| --- | --- | --- |
${rows.join('\n')}

Curator: 5.9.0 (Maven Central) on the other side of every interop test; the lock, queue and discovery interop
tests also against Debian's Curator 5.4.0 (${cell(curator)}).`);
