import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_LAYERS, checkLayers, importSpecifiers } from './check-layers.mjs';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-layers.mjs');
const work = mkdtempSync(path.join(tmpdir(), 'check-layers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes `files` (path → source) under a new folder of `work` and returns it. */
function fixture(name: string, files: Record<string, string>): string {
  const root = path.join(work, name);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

function run(root: string) {
  return spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
}

// Each layer importing the one below it, an entry point over them, a test driving the entry point.
const GOOD = {
  'index.ts': "export { connect } from './client/client.js';\n",
  'util/errors.ts': 'export class ZooKeeperError extends Error {}\n',
  'util/types.ts':
    "import type { ZooKeeperError } from './errors.js';\nexport type Failure = ZooKeeperError;\n",
  'protocol/get-data.ts':
    "import type { Failure } from '../util/types.js';\nexport const decode = (f?: Failure) => f;\n",
  'transport/connection.ts':
    "import { decode } from '../protocol/get-data.js';\nexport const read = decode;\n",
  'session/session.ts': "export { read } from '../transport/connection.js';\n",
  'client/client.ts': "import { read } from '../session/session.js';\nexport const connect = () => read();\n",
  'client/client.test.ts': "import { connect } from '../index.js';\nconnect();\n",
};

describe('check-layers', () => {
  it('passes a tree whose every import goes down, and counts its floors', () => {
    const report = checkLayers({ root: fixture('good', GOOD) });
    expect(report.violations).toEqual([]);
    // index → client → session → transport → protocol → types → errors
    expect(report.floors).toBe(7);
    expect(report.chain[0]).toBe('index.ts');
    expect(report.chain.at(-1)).toBe('util/errors.ts');
    expect(report.layerFloors).toBe(6);
    expect(report.filesPerLayer).toMatchObject({ util: 2, protocol: 1, client: 2, pipeline: 0 });
    const cli = run(fixture('good-cli', GOOD));
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('7 import floors of files');
  });

  it('fails an upward import, naming the file and the import', () => {
    const root = fixture('upward', {
      ...GOOD,
      // The transport reaching up into the session.
      'transport/connection.ts':
        "import { decode } from '../protocol/get-data.js';\nimport type { Session } from '../session/session.js';\nexport const read = decode;\nexport type S = Session;\n",
    });
    const report = checkLayers({ root });
    expect(report.violations).toEqual([
      expect.objectContaining({ file: 'transport/connection.ts', specifier: '../session/session.js' }),
    ]);
    const cli = run(root);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain("transport/connection.ts imports '../session/session.js' from session/");
  });

  it('fails a layer file importing an entry point, and a file outside every layer', () => {
    const root = fixture('entry-and-stray', {
      ...GOOD,
      'session/session.ts': "import '../index.js';\nexport { read } from '../transport/connection.js';\n",
      'helpers/misc.ts': 'export const x = 1;\n',
    });
    const messages = checkLayers({ root }).violations.map((v) => `${v.file} ${v.message}`);
    expect(messages).toEqual([
      'helpers/misc.ts is in helpers/, which is not a layer (layers: util, protocol, security, transport, pipeline, session, client)',
      "session/session.ts imports '../index.js', an entry point above every layer",
    ]);
  });

  it('reads every kind of import: type-only, re-exports, side effects, dynamic', () => {
    const source = [
      "import type { A } from './a.js';",
      "import { b,\n  c } from './b.js';",
      "export * from './d.js';",
      "export { e } from './e.js';",
      "import './f.js';",
      "const g = await import('./g.js');",
      "// import { not } from './comment.js';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.js', './b.js', './d.js', './e.js', './f.js', './g.js']);
  });

  it('passes the client as it is', () => {
    const root = path.resolve(path.dirname(script), '../packages/zk-wire-client/src');
    const report = checkLayers({ root });
    expect(report.violations).toEqual([]);
    expect(report.layerFloors).toBeLessThanOrEqual(CLIENT_LAYERS.length + 1);
  });
});
