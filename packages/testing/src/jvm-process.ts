import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { findJava } from './find-java.js';
import { killOnExit, watchdogCommand } from './process-cleanup.js';

/** How to launch one JVM: its classpath, main class, arguments, JVM flags and log file. */
export interface JvmLaunch {
  classpath: string[];
  mainClass: string;
  args: string[];
  jvmFlags: string[];
  /** stdout and stderr are appended to this file. */
  logFile: string;
}

const STOP_GRACE_MS = 10_000;

/**
 * One JVM child process that dies with us (see process-cleanup.ts). Knows how to start, stop (SIGTERM, then
 * SIGKILL after a grace period), kill (SIGKILL) and wait for its exit. Can be started again after it ended.
 */
export class JvmProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly launch: JvmLaunch) {}

  /** The PID while running, else undefined. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** True from {@link start} until the process has exited. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Launches the JVM; resolves once it is spawned (not once it is ready). */
  start(): void {
    if (this.running) throw new Error(`JVM ${this.launch.mainClass} is already running (pid ${this.pid})`);
    const { file, args } = watchdogCommand(findJava(), [
      ...this.launch.jvmFlags,
      '-cp',
      this.launch.classpath.join(':'),
      this.launch.mainClass,
      ...this.launch.args,
    ]);
    const log = openSync(this.launch.logFile, 'a');
    try {
      const child = spawn(file, args, { stdio: ['pipe', log, log] });
      this.child = child;
      killOnExit(child);
      // The watchdog's pipe must not keep our event loop alive.
      (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      child.stdin?.on('error', () => {});
      this.exited = new Promise((resolve) => {
        child.once('exit', () => {
          child.stdin?.destroy();
          resolve();
        });
        child.once('error', () => resolve());
      });
    } finally {
      closeSync(log);
    }
  }

  /** Resolves when the current run has exited (at once when not running). */
  waitExit(): Promise<void> {
    return this.exited;
  }

  /** SIGTERM, then SIGKILL if it has not exited after a grace period. Resolves once it has exited. */
  async stop(): Promise<void> {
    if (!this.running) return this.exited;
    this.child?.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), STOP_GRACE_MS);
    });
    const result = await Promise.race([this.exited, grace]);
    clearTimeout(timer);
    if (result === 'late') await this.kill();
  }

  /** SIGKILL (a crash). Resolves once it has exited. */
  async kill(): Promise<void> {
    if (this.running) this.child?.kill('SIGKILL');
    return this.exited;
  }

  /** The last `lines` lines of the log file, for error messages. */
  logTail(lines = 30): string {
    try {
      return readFileSync(this.launch.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}
