import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/*
 * Two layers keep JVMs from outliving the test process:
 * 1. Every child is registered here and SIGKILLed from a synchronous 'exit' handler (normal exit, uncaught
 *    error, or SIGINT/SIGTERM, which we turn into an exit).
 * 2. {@link watchdogCommand} wraps the JVM in a shell that kills it when our end of its stdin pipe closes,
 *    which also covers a SIGKILLed test process, where no handler runs.
 */
const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let installed = false;

function killAll(): void {
  for (const child of live) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  live.clear();
  // A test that never disposed its server (or a worker torn down early) still leaves no temp dir behind.
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // best effort: a JVM killed a moment ago may still be writing
    }
  }
  tempDirs.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // Only take over the signal when nobody else handles it, so we never change a test runner's behaviour.
    if (process.listenerCount(signal) > 0) continue;
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

/** Registers a child process to be SIGKILLed when this process exits; it unregisters itself when it ends. */
export function killOnExit(child: ChildProcess): void {
  install();
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** Registers a temp directory to be removed when this process exits (see {@link forgetOnExit}). */
export function removeOnExit(dir: string): void {
  install();
  tempDirs.add(dir);
}

/** Unregisters a directory given to {@link removeOnExit} (its owner removed it). */
export function forgetOnExit(dir: string): void {
  tempDirs.delete(dir);
}

/** How many registered children are still running (for tests of this package). */
export function liveChildCount(): number {
  return live.size;
}

/**
 * Returns a `/bin/sh` command line that runs `command args...` under the same PID (via `exec`) while a
 * background reader waits on stdin; when stdin reaches EOF (our process died or closed it) the reader
 * SIGKILLs the command. Spawn it with `stdio[0] = 'pipe'` and keep that pipe open while the child should live.
 */
export function watchdogCommand(command: string, args: readonly string[]): { file: string; args: string[] } {
  // The name check keeps a late watchdog (its command already gone and reaped) off a recycled PID.
  const name = command.split('/').pop()?.slice(0, 15) ?? '';
  const script = `exec 3<&0; { cat <&3 >/dev/null; [ "$(cat /proc/$$/comm 2>/dev/null)" = '${name}' ] && kill -9 $$; } & exec "$@"`;
  return { file: '/bin/sh', args: ['-c', script, 'zkwire-watchdog', command, ...args] };
}
