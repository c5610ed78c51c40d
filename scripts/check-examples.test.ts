import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkExamples, extractBlocks, findMarkdownFiles, packagePaths } from './check-examples.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'check-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GOOD = [
  '# Good',
  '',
  '```ts',
  "import { paths } from '@zkwire/zk-wire-client';",
  '',
  "const joined: string = paths.join('/a', 'b');",
  'await Promise.resolve(joined); // top-level await is allowed',
  '```',
  '',
].join('\n');

// Line 7 uses a class that the block never imports.
const BAD = [
  '# Bad',
  '',
  'Some prose.',
  '',
  '```ts',
  "import { connect } from '@zkwire/zk-wire-client';",
  "const client = await connect({ connectString: '127.0.0.1:2181' });",
  "const mutex = new InterProcessMutex(client, '/locks/a');",
  '```',
  '',
  '```ts no-check',
  'this is not TypeScript, on purpose',
  '```',
  '',
].join('\n');

function writeMarkdown(name: string, text: string): string {
  const file = path.join(work, name);
  writeFileSync(file, text);
  return file;
}

// Each check builds a TypeScript program over the client's sources: seconds alone, more on a busy machine.
describe('check-examples', { timeout: 180_000 }, () => {
  it('passes a self-contained block', () => {
    const file = writeMarkdown('good.md', GOOD);
    const result = checkExamples({ root, files: [file], outDir: path.join(work, 'out-good') });
    expect(result.errors).toEqual([]);
    expect(result.blocks).toBe(1);
    expect(result.failures).toEqual([]);
  });

  it('fails a block that uses a name it never imports, pointing at the Markdown file and line', () => {
    const file = writeMarkdown('bad.md', BAD);
    const result = checkExamples({ root, files: [file], outDir: path.join(work, 'out-bad') });
    expect(result.blocks).toBe(1);
    expect(result.skipped).toBe(1);
    expect(result.failures).toHaveLength(1);
    expect(result.errors).toHaveLength(1);
    const error = result.errors[0]!;
    expect(error.line).toBe(8);
    expect(error.column).toBe(19);
    expect(error.message).toContain("Cannot find name 'InterProcessMutex'");
    expect(error.text).toMatch(/bad\.md:8:19 error TS2304: Cannot find name 'InterProcessMutex'/);
  });

  it('as a command: prints FILE.md:LINE:COL for each error and exits 1', () => {
    const file = writeMarkdown('command.md', BAD);
    const script = path.join(root, 'scripts', 'check-examples.mjs');
    const run = spawnSync(process.execPath, [script, '--out', path.join(work, 'out-command'), file], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${file}:8:19 error TS2304: Cannot find name 'InterProcessMutex'.`);
    expect(run.stderr).toContain('1 example(s) do not compile when pasted alone into an empty file.');
    expect(run.stdout).toContain('examples: 0 of 1 compile alone, 1 marked no-check (1 Markdown files)');
  });

  it('keeps blocks apart: a name defined in one block is unknown in the next', () => {
    const file = writeMarkdown(
      'two.md',
      [
        '```ts',
        'const shared = 1;',
        'console.log(shared);',
        '```',
        '```ts',
        'console.log(shared);',
        '```',
      ].join('\n'),
    );
    const result = checkExamples({ root, files: [file], outDir: path.join(work, 'out-two') });
    expect(result.blocks).toBe(2);
    expect(result.errors.map((e) => [e.line, e.message])).toEqual([[6, "Cannot find name 'shared'."]]);
  });

  it('extracts only TypeScript fences, with the line of their first code line and indented fences', () => {
    const blocks = extractBlocks(
      [
        '```sh',
        'npm test',
        '```',
        '- item',
        '  ```ts',
        '  const a = 1;',
        '  ```',
        '~~~typescript',
        'x',
        '~~~',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      { line: 6, indent: 2, code: 'const a = 1;', skip: false, ext: 'ts' },
      { line: 9, indent: 0, code: 'x', skip: false, ext: 'ts' },
    ]);
  });

  it('extracts JavaScript fences too, ES modules as .mjs and CommonJS as .cjs', () => {
    const blocks = extractBlocks(
      ['```js', 'a', '```', '```cjs', 'b', '```', '```js no-check', 'c', '```'].join('\n'),
    );
    expect(blocks).toEqual([
      { line: 2, indent: 0, code: 'a', skip: false, ext: 'mjs' },
      { line: 5, indent: 0, code: 'b', skip: false, ext: 'cjs' },
      { line: 8, indent: 0, code: 'c', skip: true, ext: 'mjs' },
    ]);
  });

  it("type-checks JavaScript blocks, ESM and CommonJS, against the packages' types", () => {
    const file = writeMarkdown(
      'js.md',
      [
        '```js',
        "import { connect } from '@zkwire/zk-wire-client';",
        'await connect({ connectString: 5 });',
        '```',
        '```cjs',
        "const { connect } = require('@zkwire/zk-wire-client');",
        "connect({ connectString: '127.0.0.1:2181', sessionTimeoutMs: 'long' });",
        '```',
        '```cjs',
        "const { paths } = require('@zkwire/zk-wire-client');",
        "console.log(paths.join('/a', 'b'));",
        '```',
      ].join('\n'),
    );
    const result = checkExamples({ root, files: [file], outDir: path.join(work, 'out-js') });
    expect(result.blocks).toBe(3);
    expect(result.errors.map((e) => [e.line, e.message])).toEqual([
      [3, "Type 'number' is not assignable to type 'string'."],
      [7, "Type 'string' is not assignable to type 'number'."],
    ]);
  });

  it("finds every package's README and maps every package, so new packages are checked without configuration", () => {
    const files = findMarkdownFiles(root);
    expect(files).toContain('README.md');
    expect(files).toContain('packages/zk-wire-client/SECURITY.md');
    expect(files).not.toContain('docs/contracts.md');
    const mapped = packagePaths(root);
    expect(mapped['@zkwire/zk-wire-client']).toEqual(['packages/zk-wire-client/src/index.ts']);
    expect(mapped['@zkwire/jute-codec/internal']).toEqual(['packages/jute-codec/src/internal.ts']);
    expect(mapped['@zkwire/testing']).toEqual(['packages/testing/src/index.ts']);
  });
});
