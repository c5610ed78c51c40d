/** Starts one worker process for one cell and reads its result line. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type CellResult, type CellSpec, RESULT_MARKER } from './types.js';

const workerPath = fileURLToPath(new URL('./worker/worker-main.ts', import.meta.url));

/**
 * The command line of a Node worker: the same node and loader (tsx) as this process; memory cells also get
 * `--expose-gc`, to measure after a full GC (other cells run without it, as users' processes do).
 */
export function nodeWorkerCommand(spec: CellSpec): string[] {
  const gc = spec.kind === 'memory' ? ['--expose-gc'] : [];
  return [process.execPath, ...process.execArgv, ...gc, workerPath, JSON.stringify(spec)];
}

/** Runs `command` (after `prefix`, e.g. taskset) and returns the CellResult it printed. Never throws. */
export function runWorker(prefix: string[], command: string[], timeoutMs: number): Promise<CellResult> {
  const [file, ...args] = [...prefix, ...command];
  return new Promise((resolve) => {
    const child = spawn(file as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `cannot start ${file}: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (line) {
        try {
          resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as CellResult);
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
      const how = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ' (timeout)' : ''}` : `exit ${code}`;
      resolve({ ok: false, error: `worker gave no result (${how}): ${tail}` });
    });
  });
}
