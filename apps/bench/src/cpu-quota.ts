/**
 * A CPU quota for one process (the embedded server, for `--slow-server`): a cgroup of its own whose CFS
 * quota is a share of one core, so the server runs at that share of its speed however many threads it has.
 * cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`); needs root. A busy loop sharing the server's core was
 * tried first and did not slow it: the scheduler shares a core among threads, and the JVM has several.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 100_000;

/** A quota in place; `release` removes the cgroup once the process has exited. */
export interface CpuQuota {
  /** where the cgroup lives, for the report */
  path: string;
  release(): void;
}

/** The cgroup root whose cpu controller we can use, and its kind. */
function cpuRoot(): { root: string; v2: boolean } | undefined {
  const v2 = '/sys/fs/cgroup';
  if (existsSync(join(v2, 'cgroup.controllers'))) {
    const controllers = readFileSync(join(v2, 'cgroup.controllers'), 'utf8');
    if (controllers.split(/\s+/).includes('cpu')) return { root: v2, v2: true };
  }
  const v1 = '/sys/fs/cgroup/cpu';
  if (existsSync(join(v1, 'cpu.cfs_quota_us'))) return { root: v1, v2: false };
  return undefined;
}

/**
 * Limits process `pid` (every thread) to `share` of one core (0 < share <= 1). Throws a readable error when
 * this machine offers no cpu cgroup we may write (not root, no controller).
 */
export function limitCpu(pid: number, share: number): CpuQuota {
  if (!(share > 0 && share <= 1)) throw new Error(`CPU share must be in (0, 1], got ${share}`);
  const found = cpuRoot();
  if (!found) throw new Error('no cpu cgroup controller here (cgroup v2 cpu.max or v1 cpu.cfs_quota_us)');
  const path = join(found.root, `zkwire-bench-${process.pid}-${pid}`);
  try {
    mkdirSync(path);
    const quota = Math.round(PERIOD_US * share);
    if (found.v2) writeFileSync(join(path, 'cpu.max'), `${quota} ${PERIOD_US}`);
    else {
      writeFileSync(join(path, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(path, 'cpu.cfs_quota_us'), String(quota));
    }
    // cgroup.procs moves every thread of the process (v1 and v2 alike).
    writeFileSync(join(path, 'cgroup.procs'), String(pid));
  } catch (error) {
    throw new Error(`cannot set a CPU quota in ${path} (root needed): ${(error as Error).message}`);
  }
  return {
    path,
    release: () => {
      try {
        rmdirSync(path);
      } catch {
        // still busy (the process has not exited yet) or already gone: the name is unique to this run
      }
    },
  };
}
