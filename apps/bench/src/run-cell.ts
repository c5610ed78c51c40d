/**
 * Runs one cell's process and reads its result line. A turn cell's process prints READY_MARKER once ready
 * (connected, its loop built, warmed up) and gets the first turn's start time on stdin once every process of
 * the case is ready (StartBarrier): a fixed start after spawning let a slow starter (a JVM, tsx under load)
 * sleep through its turns.
 */
import { spawn } from 'node:child_process';
import { type CellResult, READY_MARKER, RESULT_MARKER } from './types.js';

/** From "all are ready" to the first turn: time for the start line to reach every process. */
const START_MARGIN_MS = 300;
/** How long a turn cell's process may take to be ready before it is killed and the others start. */
const READY_TIMEOUT_MS = 120_000;

/** Holds the processes of a turn case until each has arrived or withdrawn, then gives them one start time. */
export class StartBarrier {
  private readonly waiting: ((startAt: number) => void)[] = [];
  private startAt: number | undefined;

  constructor(private expected: number) {}

  arrive(): Promise<number> {
    if (this.startAt !== undefined) return Promise.resolve(this.startAt);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.releaseIfAll();
    });
  }

  /** A process ended without arriving: the others stop waiting for it. */
  withdraw(): void {
    this.expected--;
    this.releaseIfAll();
  }

  private releaseIfAll(): void {
    if (this.startAt !== undefined || this.waiting.length === 0 || this.waiting.length < this.expected)
      return;
    const startAt = Date.now() + START_MARGIN_MS;
    this.startAt = startAt;
    for (const resolve of this.waiting.splice(0)) resolve(startAt);
  }
}

/**
 * Runs `command` (after `prefix`, e.g. taskset) and resolves with the CellResult it printed; never rejects.
 * `timeoutMs` counts from the start, or for a turn cell from its start time.
 */
export function runCellProcess(
  prefix: string[],
  command: string[],
  timeoutMs: number,
  barrier?: StartBarrier,
): Promise<CellResult> {
  const [file, ...args] = [...prefix, ...command];
  return new Promise((resolve) => {
    const child = spawn(file as string, args, { stdio: 'pipe' });
    child.stdin.on('error', () => {}); // it may die before it reads its start line
    if (!barrier) child.stdin.end();
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
    killAfter(barrier ? READY_TIMEOUT_MS : timeoutMs);
    let beforeReady = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (!barrier || arrived) return;
      beforeReady += chunk.toString('utf8');
      if (!beforeReady.includes(`${READY_MARKER}\n`)) return;
      arrived = true;
      clearTimeout(timer); // while it waits, the barrier lets go at the latest when the slowest is killed
      void barrier.arrive().then((startAt) => {
        if (settled) return;
        killAfter(startAt - Date.now() + timeoutMs);
        child.stdin.end(`${startAt}\n`);
      });
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const settle = (result: CellResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (barrier && !arrived) barrier.withdraw();
      resolve(result);
    };
    child.once('error', (error) => settle({ ok: false, error: `cannot start ${file}: ${error.message}` }));
    const lines = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8').split('\n');
    child.once('close', (code, signal) => {
      const line = lines(out).find((l) => l.startsWith(RESULT_MARKER));
      try {
        if (line) return settle(JSON.parse(line.slice(RESULT_MARKER.length)) as CellResult);
      } catch {
        // reported below as a broken worker
      }
      const tail = lines(err)
        .filter((l) => l.trim())
        .slice(-3)
        .join(' / ');
      const how = signal ? `killed by ${signal}${timedOut ? ' (timeout)' : ''}` : `exit ${code}`;
      const late = barrier && !arrived ? ', never ready for its turns' : '';
      settle({ ok: false, error: `no result (${how}${late}): ${tail}` });
    });
  });
}
