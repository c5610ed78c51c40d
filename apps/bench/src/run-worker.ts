/** Starts one worker process for one cell and reads its result line. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StartBarrier } from './start-barrier.js';
import { type CellResult, type CellSpec, READY_MARKER, RESULT_MARKER } from './types.js';

const workerPath = fileURLToPath(new URL('./worker/worker-main.ts', import.meta.url));

/**
 * The command line of a Node worker: the same node and loader (tsx) as this process; memory cells also get
 * `--expose-gc`, to measure after a full GC (other cells run without it, as users' processes do).
 */
export function nodeWorkerCommand(spec: CellSpec): string[] {
  const gc = spec.kind === 'memory' ? ['--expose-gc'] : [];
  return [process.execPath, ...process.execArgv, ...gc, workerPath, JSON.stringify(spec)];
}

/**
 * A turn cell's start: the worker prints READY_MARKER when ready and gets its start time on stdin once the
 * barrier lets every worker of the case go. One not ready after `readyTimeoutMs` is killed.
 */
export interface TurnStart {
  barrier: StartBarrier;
  readyTimeoutMs: number;
}

/**
 * Runs `command` (after `prefix`, e.g. taskset) and returns the CellResult it printed. Never throws.
 * `timeoutMs` counts from the start, or for a turn cell from its start time.
 */
export function runWorker(
  prefix: string[],
  command: string[],
  timeoutMs: number,
  turnStart?: TurnStart,
): Promise<CellResult> {
  const [file, ...args] = [...prefix, ...command];
  return new Promise((resolve) => {
    const child = spawn(file as string, args, { stdio: 'pipe' });
    // the worker may have died before it reads its start line
    child.stdin.on('error', () => {});
    if (!turnStart) child.stdin.end();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let arrived = false;
    let settled = false;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const killAfter = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, ms);
    };
    killAfter(turnStart ? turnStart.readyTimeoutMs : timeoutMs);
    // what the worker printed before its ready line (searched as it comes, not re-read from the start)
    let beforeReady = '';
    child.stdout.on('data', (c: Buffer) => {
      out.push(c);
      if (!turnStart || arrived) return;
      beforeReady += c.toString('utf8');
      if (!beforeReady.includes(`${READY_MARKER}\n`)) return;
      arrived = true;
      // No timer while it waits for the others: the barrier lets go at the latest when the slowest worker
      // is killed for not being ready.
      clearTimeout(timer);
      void turnStart.barrier.arrive().then((startAt) => {
        if (settled) return;
        killAfter(startAt - Date.now() + timeoutMs);
        child.stdin.end(`${startAt}\n`);
      });
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const settle = (result: CellResult) => {
      if (settled) return; // 'error' and 'close' can both come
      settled = true;
      clearTimeout(timer);
      if (turnStart && !arrived) turnStart.barrier.withdraw();
      resolve(result);
    };
    child.once('error', (error) => settle({ ok: false, error: `cannot start ${file}: ${error.message}` }));
    child.once('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (line) {
        try {
          settle(JSON.parse(line.slice(RESULT_MARKER.length)) as CellResult);
          return;
        } catch {
          // fall through: report it as a broken worker
        }
      }
      const tail = Buffer.concat(err)
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() && !l.includes('Unknown user config'))
        .slice(-3)
        .join(' / ');
      const late = turnStart && !arrived ? ', never ready for its turns' : '';
      const how = signal ? `killed by ${signal}${timedOut ? ' (timeout)' : ''}` : `exit ${code}`;
      settle({ ok: false, error: `worker gave no result (${how}${late}): ${tail}` });
    });
  });
}
