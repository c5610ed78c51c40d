import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A test process that dies must not leave its ZooKeeper JVM behind: not on a normal exit, not on an uncaught
 * error, and not on SIGKILL, where no handler of ours can run (the watchdog shell sees its stdin close).
 * Where a handler can run, the server's temp dir goes too.
 */
const fixture = fileURLToPath(new URL('./fixtures/start-and-wait.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function untilDead(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function startChild(mode: string): Promise<{ child: ChildProcess; pid: number; dir: string }> {
  const child = spawn(process.execPath, ['--import', tsx, fixture, mode], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    output += chunk.toString();
    if (output.includes('\n')) break;
  }
  const { pid, dir } = JSON.parse(output.split('\n')[0] as string) as { pid: number; dir: string };
  return { child, pid, dir };
}

describe('JVMs die with the test process', () => {
  for (const mode of ['exit', 'throw', 'SIGTERM', 'SIGKILL'] as const) {
    it(`on ${mode}`, async () => {
      const { child, pid, dir } = await startChild(mode);
      try {
        expect(isAlive(pid)).toBe(true);
        if (mode === 'SIGTERM' || mode === 'SIGKILL') child.kill(mode);
        if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
        // Resolves only once the JVM is gone; the test would time out if it survived.
        await untilDead(pid);
        expect(isAlive(pid)).toBe(false);
        // Where our exit handler could run, it also removed the server's temp dir.
        if (mode !== 'SIGKILL') expect(existsSync(dir)).toBe(false);
      } finally {
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
