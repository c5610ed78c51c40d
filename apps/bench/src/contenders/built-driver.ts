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

export interface DriverBuild {
  /** `go`, `rust`: the cache folder's name, and how the logs call it */
  name: string;
  sourceDir: string;
  /** files relative to sourceDir, hashed and copied into the build folder */
  sources: string[];
  /** the toolchain's command, tried in order (the PATH, then where its installer puts it) */
  tools: string[];
  /** the build's arguments, environment and the binary it leaves (relative to the build folder) */
  build(cache: string): { args: string[]; env?: Record<string, string>; output: string };
  detail: string;
}

function findTool(tools: readonly string[]): string | undefined {
  return tools.find(
    (tool) =>
      spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0 ||
      spawnSync(tool, ['version'], { stdio: 'ignore' }).status === 0,
  );
}

/** The binary for these sources, built when missing; never throws. */
export function prepareBuiltDriver(spec: DriverBuild, log: (line: string) => void): Prepared {
  const cache = join(cacheRoot, `bench-${spec.name}`);
  const hash = createHash('sha256');
  for (const file of spec.sources) hash.update(file).update(readFileSync(join(spec.sourceDir, file)));
  const binary = join(cache, hash.digest('hex').slice(0, 16), 'driver');
  if (!existsSync(binary)) {
    const tool = findTool(spec.tools);
    if (!tool)
      return { ok: false, reason: `no ${spec.tools[0]} on this machine to build the ${spec.name} driver` };
    log(`building the ${spec.name} driver (once) ...`);
    mkdirSync(cache, { recursive: true });
    const work = mkdtempSync(join(cache, 'build-'));
    try {
      for (const file of spec.sources) {
        mkdirSync(dirname(join(work, file)), { recursive: true });
        copyFileSync(join(spec.sourceDir, file), join(work, file));
      }
      const { args, env, output } = spec.build(cache);
      const built = spawnSync(tool, args, {
        cwd: work,
        encoding: 'utf8',
        timeout: 900_000,
        env: { ...process.env, ...env },
      });
      if (built.status !== 0) {
        const why = `${built.stderr ?? ''}${built.error ?? ''}`.trim().split('\n').slice(-4).join(' / ');
        return { ok: false, reason: `${spec.name} driver build failed: ${why}` };
      }
      mkdirSync(dirname(binary), { recursive: true });
      renameSync(join(work, output), binary);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { ok: true, detail: spec.detail, command: (cell) => [binary, ...driverArgs(cell)] };
}
