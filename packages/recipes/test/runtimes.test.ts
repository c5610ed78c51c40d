/**
 * The packed client and recipes run unchanged on every JavaScript runtime we claim (README "Runtimes"): one
 * script (runtimes/smoke.mjs) under Node, Bun and Deno against a real server. The runtimes come from npm
 * (`deno`, `@oven/bun-linux-x64`, dev/optional dependencies of the repository), so nothing is downloaded at
 * test time. The script imports the built packages (dist), which beforeAll brings up to date with turbo.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const script = fileURLToPath(new URL('./runtimes/smoke.mjs', import.meta.url));

/** Each runtime: its command line, or why it is missing (a test fails then: CI installs all three). */
const runtimes: Record<string, string[]> = {
  node: [process.execPath, script],
  bun: [`${root}/node_modules/@oven/bun-linux-x64/bin/bun`, script],
  deno: [`${root}/node_modules/.bin/deno`, 'run', '--allow-all', script],
};

function run(
  command: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command[0]!,
      command.slice(1),
      { cwd: root, env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command[0]} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

let server: ZooKeeperServer;
beforeAll(async () => {
  // Build (or find in turbo's cache) what the script imports.
  await run(
    ['npx', 'turbo', 'run', 'build', '--filter=@zkwire/recipes...', '--output-logs=errors-only'],
    {},
    220_000,
  );
  server = await startZooKeeper();
}, 240_000);
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

describe.each(Object.keys(runtimes))('runtime %s', (name) => {
  it('connects, watches, takes a mutex and pipelines 200 calls in order', async () => {
    const command = runtimes[name]!;
    expect(existsSync(command[0]!), `${command[0]} (run npm install)`).toBe(true);
    const base = `/runtime-${name}`;
    const { stdout } = await run(command, { ZK_CONNECT: server.connectString, ZK_BASE: base });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result).toEqual({
      runtime: name,
      events: [`dataChanged ${base}`],
      acquired: true,
      fencingToken: 0,
      created: 200,
      inOrder: true,
      children: 200,
      data: name,
    });
  });
});
