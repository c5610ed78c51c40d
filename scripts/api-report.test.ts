import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReports, publishedPackages, renderReport, writeReports } from './api-report.mjs';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'api-report.mjs');
const work = mkdtempSync(path.join(tmpdir(), 'api-report-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name,
    exports: {
      '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './package.json': './package.json',
    },
    ...extra,
  });

// What tsup's declaration build emits: declarations, then one export list, with JSDoc and private members.
const FOO_DTS = `/** Says hello. */
declare function greet(name: string): string;
declare function greet(name: string, times: number): string;
/** A counter. */
declare class Counter {
    private count;
    #secret;
    /** The current value. */
    get value(): number;
    increment(by?: number): void;
}
interface Options {
    /** How loud. */
    volume: number;
}
declare const VERSION = "1.0.0";
declare namespace helpers {
    export { greet as hello };
}
export { Counter, type Options, VERSION, greet, helpers };
`;

/** A monorepo with one published package (foo, built) and one private (bar), under a new folder of `work`. */
function fixture(name: string): string {
  const root = path.join(work, name);
  const files: Record<string, string> = {
    'packages/foo/package.json': manifest('@demo/foo'),
    'packages/foo/dist/index.d.ts': FOO_DTS,
    'packages/bar/package.json': manifest('@demo/bar', { private: true }),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function runCli(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [script, '--root', root, ...args], { encoding: 'utf8' });
}

describe('api-report', () => {
  it('finds published packages only, with the types of each exports entry', () => {
    const root = fixture('published');
    expect(publishedPackages(root)).toEqual([
      { dir: 'foo', name: '@demo/foo', entries: [{ subpath: '.', types: './dist/index.d.ts' }] },
    ]);
  });

  it('lists every export sorted, with its declaration text, without comments or private members', () => {
    const root = fixture('render');
    const [pkg] = publishedPackages(root);
    if (!pkg) throw new Error('no package found');
    const report = renderReport(root, pkg);
    const headings = report.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# API report: @demo/foo',
      '## @demo/foo',
      '### Counter',
      '### Options',
      '### VERSION',
      '### greet',
      '### helpers',
      '### helpers.hello',
    ]);
    expect(report).toContain(
      '### greet\n\n```ts\ndeclare function greet(name: string): string;\n' +
        'declare function greet(name: string, times: number): string;\n```',
    );
    expect(report).toContain(
      '```ts\ndeclare class Counter {\n    get value(): number;\n    increment(by?: number): void;\n}\n```',
    );
    expect(report).toContain('```ts\ninterface Options {\n    volume: number;\n}\n```');
    expect(report).toContain('```ts\ndeclare const VERSION = "1.0.0";\n```');
    expect(report).toContain('### helpers.hello\n\n```ts\ndeclare function greet(name: string): string;');
    expect(report).not.toMatch(/How loud|Says hello|private|#secret/);
  });

  it('names the missing declaration file and says to build first', () => {
    const root = fixture('unbuilt');
    rmSync(path.join(root, 'packages/foo/dist'), { recursive: true });
    const result = runCli(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('packages/foo/dist/index.d.ts not found; build first');
  });

  it('writes one report per published package; --check passes while the build matches it', () => {
    const root = fixture('check-same');
    expect(writeReports(root)).toEqual(['packages/foo/api/foo.api.md']);
    expect(checkReports(root)).toEqual({ ok: true, diff: '' });
    const result = runCli(root, '--check');
    expect(result.status).toBe(0);
  });

  it('--check fails with a diff when the public surface changes, and leaves the committed report alone', () => {
    const root = fixture('check-changed');
    writeReports(root);
    const committed = readFileSync(path.join(root, 'packages/foo/api/foo.api.md'), 'utf8');
    writeFileSync(
      path.join(root, 'packages/foo/dist/index.d.ts'),
      FOO_DTS.replace('increment(by?: number): void;', 'increment(by?: number): void;\n    reset(): void;'),
    );
    const result = runCli(root, '--check');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('+    reset(): void;');
    expect(result.stderr).toContain('npm run api:report');
    expect(readFileSync(path.join(root, 'packages/foo/api/foo.api.md'), 'utf8')).toBe(committed);
  });

  it('--check fails when a published package has no committed report', () => {
    const root = fixture('check-missing');
    const result = runCli(root, '--check');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('packages/foo/api/foo.api.md: no committed report');
  });
});
