/**
 * An external driver built from its sources on first use (Go, Rust) into a cache folder outside the
 * repository, named by a hash of the sources, so that later runs reuse the binary and a changed source builds
 * anew. Without the toolchain, or when the build fails, the contender is not ready and says why.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Prepared } from './contender.js';
import { driverArgs } from './driver-protocol.js';

const cacheRoot = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'zkwire');

/** `name`: the cache folder's and the logs'; `sources`: relative to sourceDir; `tools`: tried in order. */
interface Sources {
  name: string;
  sourceDir: string;
  sources: string[];
  tools: string[];
}

/** The binary for these sources, built when missing (`build` gives the arguments); never throws. */
export function prepareBuiltDriver(
  { name, sourceDir, sources, tools }: Sources,
  build: (cache: string) => { args: string[]; env?: Record<string, string>; output: string },
  detail: string,
  log: (line: string) => void,
): Prepared {
  const cache = join(cacheRoot, `bench-${name}`);
  const hash = createHash('sha256');
  for (const file of sources) hash.update(file).update(readFileSync(join(sourceDir, file)));
  const binary = join(cache, hash.digest('hex').slice(0, 16), 'driver');
  if (!existsSync(binary)) {
    const runs = (tool: string, arg: string) => spawnSync(tool, [arg], { stdio: 'ignore' }).status === 0;
    const tool = tools.find((t) => runs(t, '--version') || runs(t, 'version'));
    if (!tool) return { ok: false, reason: `no ${tools[0]} on this machine to build the ${name} driver` };
    log(`building the ${name} driver (once) ...`);
    mkdirSync(cache, { recursive: true });
    const work = mkdtempSync(join(cache, 'build-'));
    try {
      for (const file of sources) {
        mkdirSync(dirname(join(work, file)), { recursive: true });
        copyFileSync(join(sourceDir, file), join(work, file));
      }
      const { args, env, output } = build(cache);
      const opts = {
        cwd: work,
        encoding: 'utf8',
        timeout: 900_000,
        env: { ...process.env, ...env },
      } as const;
      const built = spawnSync(tool, args, opts);
      if (built.status !== 0) {
        const why = `${built.stderr ?? ''}${built.error ?? ''}`.trim().split('\n').slice(-4).join(' / ');
        return { ok: false, reason: `${name} driver build failed: ${why}` };
      }
      mkdirSync(dirname(binary), { recursive: true });
      renameSync(join(work, output), binary);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { ok: true, detail, command: (cell) => [binary, ...driverArgs(cell)] };
}
