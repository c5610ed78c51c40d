import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildOurs, importOurs } from './ours-build.js';

describe('buildOurs', () => {
  it('bundles the client from its sources into one module that connects, without tsx name wrappers', async () => {
    const built = await buildOurs();
    expect(built.module).toMatch(/zk-wire-client\.mjs$/);
    // A test worker ends without the 'exit' event that removes the directory in a bench run.
    onTestFinished(() => rmSync(dirname(built.module as string), { recursive: true, force: true }));
    const code = readFileSync(built.module as string, 'utf8');
    // The codec is bundled in (nothing left to resolve by name), and no closure is wrapped to keep its name.
    expect(code).not.toMatch(/from ["']@zkwire\//);
    expect(code).not.toContain('__name(');
    const mod = (await importOurs(built.module)) as unknown as Record<string, unknown>;
    expect(typeof mod.connect).toBe('function');
    expect(typeof mod.createClient).toBe('function');
  });
});
