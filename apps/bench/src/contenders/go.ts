/**
 * The Go contender: github.com/go-zookeeper/zk (src/go/main.go, an external driver: driver-protocol.ts), built
 * with `go build` on first use into a cache folder outside the repository, named by a hash of its sources;
 * later runs reuse the binary. Without a Go toolchain, or when the build fails, the run goes on without it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Contender, Prepared } from './contender.js';
import { driverArgs } from './driver-protocol.js';

const sourceDir = fileURLToPath(new URL('../go/', import.meta.url));
const sources = ['main.go', 'go.mod', 'go.sum'];
const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'zkwire', 'bench-go');

/** `go` on the PATH, or where the official tarball puts it. */
function goCommand(): string | undefined {
  for (const go of ['go', '/usr/local/go/bin/go']) {
    if (spawnSync(go, ['version'], { stdio: 'ignore' }).status === 0) return go;
  }
  return undefined;
}

async function prepare(log: (line: string) => void): Promise<Prepared> {
  const hash = createHash('sha256');
  for (const file of sources) hash.update(readFileSync(join(sourceDir, file)));
  const binary = join(cacheDir, hash.digest('hex').slice(0, 16), 'driver');
  if (!existsSync(binary)) {
    const go = goCommand();
    if (!go) return { ok: false, reason: 'no Go toolchain (`go`) on this machine' };
    log('building the Go driver (go-zookeeper/zk; once) ...');
    mkdirSync(cacheDir, { recursive: true });
    const work = mkdtempSync(join(cacheDir, 'build-'));
    try {
      for (const file of sources) copyFileSync(join(sourceDir, file), join(work, file));
      const built = spawnSync(go, ['build', '-o', 'driver', '.'], {
        cwd: work,
        encoding: 'utf8',
        timeout: 600_000,
      });
      if (built.status !== 0) {
        const why = `${built.stderr ?? ''}${built.error ?? ''}`.trim().split('\n').slice(-3).join(' / ');
        return { ok: false, reason: `go build failed: ${why}` };
      }
      mkdirSync(join(binary, '..'), { recursive: true });
      renameSync(join(work, 'driver'), binary);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const version = /go-zookeeper\/zk (v\S+)/.exec(readFileSync(join(sourceDir, 'go.mod'), 'utf8'))?.[1] ?? '?';
  return {
    ok: true,
    detail: `github.com/go-zookeeper/zk ${version}, a goroutine per request in flight, one process per cell`,
    command: (spec) => [binary, ...driverArgs(spec)],
  };
}

export const go: Contender = {
  id: 'go',
  label: 'Go client (go-zookeeper/zk)',
  short: 'go',
  color: '#00add8',
  supports: (kind) => kind === 'throughput' || kind === 'latency' || kind === 'session' || kind === 'watch',
  prepare,
};
