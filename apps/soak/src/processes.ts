/** The soak's client processes (Node workers and Curator drivers), driven over stdin/stdout lines. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WorkerSpec } from './worker/node-worker.js';

const nodeWorkerPath = fileURLToPath(new URL('./worker/node-worker.ts', import.meta.url));

export class SoakProcess {
  readonly name: string;
  readonly logPath: string;
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  readonly #waiters = new Set<() => void>();
  exited = false;

  constructor(name: string, command: string[], logsDir: string) {
    this.name = name;
    this.logPath = join(logsDir, `${name}.jsonl`);
    const [file, ...args] = command;
    this.#child = spawn(file as string, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr?.pipe(createWriteStream(join(logsDir, `${name}.stderr.log`)));
    createInterface({ input: this.#child.stdout! }).on('line', (line) => {
      this.#lines.push(line.trim());
      for (const wake of this.#waiters) wake();
    });
    this.#child.once('exit', () => {
      this.exited = true;
      for (const wake of this.#waiters) wake();
    });
  }

  send(line: string): void {
    if (!this.exited) this.#child.stdin?.write(`${line}\n`);
  }

  /** Resolves true once the process printed `line`, false on timeout or exit. */
  waitFor(line: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.#lines.includes(line) || this.exited) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve(this.#lines.includes(line));
        }
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        resolve(false);
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /** `exit`, then SIGKILL if it has not gone within `graceMs`. */
  async end(graceMs: number): Promise<void> {
    this.send('exit');
    this.#child.stdin?.end();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, graceMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      if (this.exited) done();
      else this.#child.once('exit', done);
    });
    if (!this.exited) this.#child.kill('SIGKILL');
  }
}

export function startNodeWorker(spec: WorkerSpec, logsDir: string): SoakProcess {
  const command = [process.execPath, ...process.execArgv, nodeWorkerPath, JSON.stringify(spec)];
  return new SoakProcess(spec.proc, command, logsDir);
}

export function startJavaDriver(
  java: { java: string; classpath: string[] },
  spec: WorkerSpec,
  logsDir: string,
): SoakProcess {
  const command = [
    java.java,
    '-Xmx96m',
    '-XX:+UseSerialGC',
    '-cp',
    java.classpath.join(':'),
    'SoakDriver',
    spec.proc,
    spec.connectString,
    spec.logPath,
    String(spec.sessionTimeoutMs),
    String(spec.seed),
    String(spec.leases),
  ];
  return new SoakProcess(spec.proc, command, logsDir);
}
