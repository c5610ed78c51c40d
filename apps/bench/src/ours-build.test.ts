import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildOurs, importOurs, importOursCompanion } from './ours-build.js';

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

  it('builds the recipes and queues next to it, importing that one client instead of a copy of their own', async () => {
    const built = await buildOurs();
    const dir = dirname(built.module as string);
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const file of ['recipes.mjs', 'queues.mjs']) {
      const code = readFileSync(join(dir, file), 'utf8');
      expect(code).toMatch(/from ["']\.\/zk-wire-client\.mjs["']/);
      // The client's own code (its connection class) is not in them.
      expect(code).not.toMatch(/class Connection\b/);
      expect(code).not.toContain('__name(');
    }
    const recipes = await importOursCompanion('@zkwire/recipes', built.module);
    const queues = await importOursCompanion('@zkwire/queues', built.module);
    expect(typeof recipes.InterProcessMutex).toBe('function');
    expect(typeof recipes.CuratorCache).toBe('function');
    expect(typeof queues.DistributedQueue).toBe('function');
  });
});
