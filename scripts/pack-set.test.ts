import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkedPackages, publishProblems, quickStartBlocks } from './pack-set.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'pack-set-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const README = [
  '# zkwire',
  '',
  '```js',
  "console.log('before the quick start');",
  '```',
  '',
  '## Quick start',
  '',
  '```sh',
  '# a shell comment is not a heading',
  'npm install @zkwire/zk-wire-client',
  '```',
  '',
  '```js',
  "import { connect } from '@zkwire/zk-wire-client';",
  '```',
  '',
  '### CommonJS',
  '',
  '```cjs',
  "const { connect } = require('@zkwire/zk-wire-client');",
  '```',
  '',
  '```js chroot=/app',
  "await connect({ connectString: '127.0.0.1:2181/app' });",
  '```',
  '',
  '```ts',
  'const typed: string = "not run here";',
  '```',
  '',
  '```js no-run',
  'fragment();',
  '```',
  '',
  '## What this is',
  '',
  '```js',
  "console.log('after the quick start');",
  '```',
].join('\n');

describe('quickStartBlocks', () => {
  it('takes the JavaScript blocks of the Quick start section, its subsections included, and the chroot they name', () => {
    expect(quickStartBlocks(README)).toEqual([
      { ext: 'mjs', chroot: undefined, code: "import { connect } from '@zkwire/zk-wire-client';" },
      { ext: 'cjs', chroot: undefined, code: "const { connect } = require('@zkwire/zk-wire-client');" },
      { ext: 'mjs', chroot: '/app', code: "await connect({ connectString: '127.0.0.1:2181/app' });" },
    ]);
  });

  it('finds nothing without a Quick start heading', () => {
    expect(quickStartBlocks('# zkwire\n\n```js\nx();\n```\n')).toEqual([]);
  });
});

describe('linkedPackages', () => {
  it('names the @zkwire packages that are links (a workspace leaking in), not the installed copies', () => {
    const scope = path.join(work, 'project', 'node_modules', '@zkwire');
    mkdirSync(path.join(scope, 'zk-wire-client'), { recursive: true });
    mkdirSync(path.join(work, 'elsewhere'));
    symlinkSync(path.join(work, 'elsewhere'), path.join(scope, 'recipes'));
    expect(linkedPackages(path.join(work, 'project'))).toEqual(['@zkwire/recipes']);
  });
});

describe('publishProblems', () => {
  it("keeps npm's warnings about the package and leaves out the dry run's login notice", () => {
    const output = [
      'npm notice Tarball Contents',
      'npm warn package-json @zkwire/cli@0.1.0 No bin file found at dist/bin.js',
      'npm warn publish This command requires you to be logged in to https://registry.npmjs.org/ (dry-run)',
      'npm notice Publishing to https://registry.npmjs.org/ with tag latest and default access (dry-run)',
      '+ @zkwire/cli@0.1.0',
    ].join('\n');
    expect(publishProblems(output)).toEqual([
      'npm warn package-json @zkwire/cli@0.1.0 No bin file found at dist/bin.js',
    ]);
    expect(publishProblems('npm notice ok\n+ @zkwire/cli@0.1.0')).toEqual([]);
  });
});
