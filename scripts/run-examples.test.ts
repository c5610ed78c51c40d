import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeFailure,
  findReadmes,
  notRunExamples,
  runModule,
  runnableExamples,
  writeExample,
} from './run-examples.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'run-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MARKDOWN = [
  '```js',
  "console.log('127.0.0.1:2181');",
  '```',
  '```cjs chroot=/app',
  "console.log(typeof require, '127.0.0.1:2181/app');",
  '```',
  '```ts',
  'let disposed = false;',
  'async function main() {',
  '  await using resource = { async [Symbol.asyncDispose]() { disposed = true; } };',
  '  console.log(typeof resource);',
  '}',
  'await main();',
  'console.log(disposed);',
  '```',
  '```ts no-run',
  "connect({ connectString: 'zk1.example.org:2281', tls: {} });",
  '```',
  '```sh',
  'npm test',
  '```',
].join('\n');

const timeoutMs = 20_000;

describe('run-examples', { timeout: 60_000 }, () => {
  it('finds the JavaScript and TypeScript blocks to run, with the chroots their fences name', () => {
    const examples = runnableExamples(MARKDOWN);
    expect(examples.map((e) => [e.line, e.runAs, e.chroots])).toEqual([
      [2, 'esm', []],
      [5, 'cjs', ['/app']],
      [8, 'ts', []],
    ]);
    expect(notRunExamples(MARKDOWN).map((e) => e.line)).toEqual([17]);
  });

  it('points the connect string at the server and runs ESM, CommonJS and down-levelled TypeScript on node', async () => {
    const outputs = [];
    for (const example of runnableExamples(MARKDOWN)) {
      const file = await writeExample(example, {
        markdownFile: 'x/README.md',
        outDir: work,
        hostPort: '10.1.2.3:4',
      });
      const run = await runModule(file, { cwd: root, timeoutMs });
      expect(describeFailure(run, { where: `README.md:${example.line}`, timeoutMs })).toBeUndefined();
      outputs.push(run.stdout.trim());
    }
    // `await using` ran on this Node (20) and disposed at the end of its scope.
    expect(outputs).toEqual(['10.1.2.3:4', 'function 10.1.2.3:4/app', 'object\ntrue']);
  });

  it('reports a block that throws with its README line, its exit code and its stderr', async () => {
    const [example] = runnableExamples(['```js', "throw new Error('broken example');", '```'].join('\n'));
    const file = await writeExample(example!, { markdownFile: 'y/README.md', outDir: work, hostPort: 'h:1' });
    const run = await runModule(file, { cwd: root, timeoutMs });
    const failure = describeFailure(run, { where: 'y/README.md:2', timeoutMs });
    expect(failure).toContain('y/README.md:2: the example exited with code 1');
    expect(failure).toContain('Error: broken example');
  });

  it('reports a block that never ends (a client left open) as such', async () => {
    const [example] = runnableExamples(['```js', 'setInterval(() => {}, 1000);', '```'].join('\n'));
    const file = await writeExample(example!, { markdownFile: 'z/README.md', outDir: work, hostPort: 'h:1' });
    const run = await runModule(file, { cwd: root, timeoutMs: 1_000 });
    expect(describeFailure(run, { where: 'z/README.md:2', timeoutMs: 1_000 })).toContain(
      'did not end within 1000 ms (does it close every client it opens?)',
    );
  });

  it('runs the examples of the root README and of every package README', () => {
    const files = findReadmes(root);
    expect(files).toContain('README.md');
    expect(files).toContain('packages/zk-wire-client/README.md');
    expect(files).not.toContain('apps/bench/README.md');
  });
});
