/**
 * The harness of a Java driver: a Java program (a Curator client, say) that a test starts once and then
 * drives over its stdin and stdout, one line a message. The driver's own Java source stays with the tests
 * that use it; this compiles it, starts it, speaks the protocol and stops it.
 *
 * The line protocol, as the driver sees it:
 * - it prints `ready` once it can take commands (its client is connected);
 * - it reads commands `<id> <word> <word> ...` from stdin and answers each, in any order, with
 *   `<id> ok [text]` or `<id> err [text]`;
 * - it prints `! <text>` for an event of its own (a listener that fired), at any time;
 * - it closes what it holds and exits when its stdin closes.
 * Other output lines are ignored; stderr is kept (its end) for error messages.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compileJava } from './java.js';
import { findCurator } from './releases/curator-release.js';

/** Options of {@link startJavaLineDriver}. */
export interface JavaLineDriverOptions {
  /** The driver's sources, file name → text (see {@link readJavaSources}). */
  sources: Record<string, string>;
  /** What to compile and run against (default `findCurator().classpath`: Curator and its ZooKeeper client). */
  classpath?: string[];
  /** The class whose `main` runs. */
  mainClass: string;
  /** The program's arguments (a connect string, a path, ...). */
  args?: string[];
  /** Extra JVM flags (`-Dkey=value`). */
  jvmFlags?: string[];
  /** How error messages name the driver (default the main class). */
  name?: string;
  /** How long {@link JavaLineDriver.close} waits for the JVM to exit before it kills it (default 10 s). */
  closeGraceMs?: number;
}

/** What {@link JavaLineDriver.waitForEvent} looks for: the exact event text, or a test on it. */
export type EventMatch = string | ((event: string) => boolean);

/** Thrown (as a rejection) when the driver answers a command with `err`; the message is the driver's text. */
export class JavaDriverError extends Error {
  override readonly name = 'JavaDriverError';
}

/** A running Java driver. */
export interface JavaLineDriver extends AsyncDisposable {
  /** Sends `<id> words...`; resolves with the text after `ok`, rejects with a {@link JavaDriverError} on `err`. */
  call(...words: (string | number)[]): Promise<string>;
  /** {@link call} whose reply is JSON. */
  json<T = unknown>(...words: (string | number)[]): Promise<T>;
  /** The events (`! text`) the driver printed, in order. */
  readonly events: readonly string[];
  /**
   * Resolves with the `times`-th event (default the first), past or future, matching `match`: counting past
   * events lets a test wait for "the second term started" without racing the first. Rejects if the driver
   * exits on its own first.
   */
  waitForEvent(match: EventMatch, times?: number): Promise<string>;
  /** The end of what the driver wrote to stderr. */
  stderrTail(): string;
  /** Closes stdin (the driver closes its client and exits) and waits for the process to end. */
  close(): Promise<void>;
  /** Kills the JVM at once (SIGKILL): its session stays until the server expires it. */
  kill(): void;
}

const STDERR_KEPT = 4_000;
const REPLY = /^(\S+) (ok|err)(?: (.*))?$/;

/**
 * Reads the Java sources at `paths` (relative to `base`, a file or folder URL such as `import.meta.url`, or
 * absolute) keyed by file name, since javac wants each public class in a file of its own name: sources from
 * several folders all compile side by side in the default package.
 */
export function readJavaSources(base: string | URL, paths: readonly string[]): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const path of paths) {
    const name = basename(path);
    if (!/^[A-Za-z_$][\w$]*\.java$/.test(name)) {
      throw new TypeError(`readJavaSources: ${path} is not a .java file named after its class`);
    }
    if (name in sources) throw new TypeError(`readJavaSources: two sources are named ${name}`);
    sources[name] = readFileSync(fileURLToPath(new URL(path, base)), 'utf8');
  }
  return sources;
}

function checkWords(words: string[]): void {
  if (words.length === 0) throw new TypeError('JavaLineDriver.call: no words given');
  const bad = words.find((word) => word.length === 0 || /\s/.test(word));
  if (bad !== undefined) {
    throw new TypeError(`JavaLineDriver.call: words must be non-empty, without spaces: ${words.join('|')}`);
  }
}

/** Compiles the driver (cached), starts it and resolves once it printed `ready`; rejects if it exits first. */
export async function startJavaLineDriver(options: JavaLineDriverOptions): Promise<JavaLineDriver> {
  if (typeof options.mainClass !== 'string' || options.mainClass.length === 0) {
    throw new TypeError('startJavaLineDriver: mainClass must be a class name');
  }
  const name = options.name ?? options.mainClass;
  const closeGraceMs = options.closeGraceMs ?? 10_000;
  const compiled = await compileJava({
    sources: options.sources,
    classpath: options.classpath ?? findCurator().classpath,
  });
  const child: ChildProcess = compiled.run(options.mainClass, options.args ?? [], {
    jvmFlags: options.jvmFlags ?? [],
  });

  const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const events: string[] = [];
  const eventWaiters = new Set<{
    test: (event: string) => boolean;
    times: number;
    resolve: (event: string) => void;
    reject: (error: Error) => void;
  }>();
  const matching = (test: (event: string) => boolean) => events.filter(test);
  // Writing to a driver that just died fails with EPIPE; its exit, below, is what reports it.
  child.stdin?.on('error', () => {});
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  let ready!: () => void;
  let failed!: (error: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  let exitError: Error | undefined;
  // A driver told to stop leaves its event waiters pending (a test may have stopped waiting); one that
  // exits on its own fails them, so that the test fails with the driver's stderr rather than its timeout.
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.once('close', (code, signal) => {
      exitError = new Error(`${name} exited (${code ?? signal}): ${stderr}`);
      failed(exitError);
      for (const entry of pending.values()) entry.reject(exitError);
      pending.clear();
      if (!stopping) for (const waiter of eventWaiters) waiter.reject(exitError);
      eventWaiters.clear();
      resolve();
    });
  });

  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') return ready();
    if (line.startsWith('! ')) {
      const event = line.slice(2);
      events.push(event);
      for (const waiter of eventWaiters) {
        if (waiter.test(event) && matching(waiter.test).length >= waiter.times) {
          eventWaiters.delete(waiter);
          waiter.resolve(event);
        }
      }
      return;
    }
    const reply = REPLY.exec(line);
    const entry = reply && pending.get(reply[1] as string);
    if (!reply || !entry) return;
    pending.delete(reply[1] as string);
    if (reply[2] === 'ok') entry.resolve(reply[3] ?? '');
    else entry.reject(new JavaDriverError(`${name}: ${reply[3] ?? ''}`));
  });
  await started;

  let nextId = 0;
  const driver: JavaLineDriver = {
    events,
    call(...args) {
      const words = args.map(String);
      try {
        checkWords(words);
      } catch (error) {
        return Promise.reject(error);
      }
      if (exitError !== undefined) return Promise.reject(exitError);
      const id = String(++nextId);
      return new Promise<string>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.stdin?.write(`${id} ${words.join(' ')}\n`);
      });
    },
    async json<T>(...words: (string | number)[]): Promise<T> {
      return JSON.parse(await driver.call(...words)) as T;
    },
    waitForEvent(match, times = 1) {
      if (!Number.isInteger(times) || times < 1) {
        return Promise.reject(
          new RangeError(`waitForEvent: times must be a whole number >= 1, got ${times}`),
        );
      }
      const test = typeof match === 'string' ? (event: string) => event === match : match;
      const seen = matching(test)[times - 1];
      if (seen !== undefined) return Promise.resolve(seen);
      if (exitError !== undefined) return Promise.reject(exitError);
      return new Promise((resolve, reject) => eventWaiters.add({ test, times, resolve, reject }));
    },
    stderrTail: () => stderr,
    kill() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    async close() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), closeGraceMs);
        await exited;
        clearTimeout(timer);
      }
    },
    [Symbol.asyncDispose]() {
      return driver.close();
    },
  };
  return driver;
}
