/**
 * Drives real Curator (`findCurator()`: 5.9.0 from Maven Central by default, `ZKWIRE_CURATOR_VERSION` for another,
 * `debian` for Debian's 5.4.0) from a test: compiles DriverMain.java plus
 * the handler sources with javac at test time (cached by `@zkwire/testing`), starts it on a server, and talks
 * to it over stdin/stdout lines (protocol in DriverMain.java). Reusable by any recipe: write a
 * `DriverHandler` class anywhere under test/, pass its path here.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { compileJava, findCurator } from '@zkwire/testing';

/** Options of {@link startJavaDriver}. */
export interface JavaDriverOptions {
  connectString: string;
  /**
   * Handler sources, as paths relative to this folder (`'LockHandler.java'`,
   * `'drivers-elections/ElectionsHandler.java'`) or absolute. The first one's basename names the handler class
   * DriverMain loads; the others are helpers it may use.
   */
  handlers: string[];
  /** Curator's session timeout (default 30000). */
  sessionTimeoutMs?: number;
}

/** What {@link JavaDriver.waitForEvent} looks for: the exact event text, or a test on it. */
export type EventMatch = string | ((event: string) => boolean);

/** A running Java driver. */
export interface JavaDriver extends AsyncDisposable {
  /** Sends `actor op args...`; resolves with the reply text after "ok", rejects with the "err" text. */
  call(actor: string, op: string, ...args: (string | number)[]): Promise<string>;
  /** Event lines the handler sent (`! text`), in order. */
  readonly events: string[];
  /**
   * Resolves with the `times`-th event (default the first), past or future, matching `match`: counting past
   * events lets a test wait for "the second term started" without racing the first.
   */
  waitForEvent(match: EventMatch, times?: number): Promise<string>;
  /** Closes stdin (the driver closes its Curator client and exits) and waits for the process to end. */
  close(): Promise<void>;
}

function source(path: string): string {
  return readFileSync(new URL(path, import.meta.url), 'utf8');
}

/**
 * The driver's sources keyed by file name, since javac wants a public class in a file of its own name: the
 * handlers may live in other folders, but they all compile side by side with DriverMain in the default package.
 */
function driverSources(handlers: string[]): Record<string, string> {
  const sources: Record<string, string> = {
    'DriverMain.java': source('./DriverMain.java'),
    'DriverHandler.java': source('./DriverHandler.java'),
  };
  for (const path of handlers) {
    const name = basename(path);
    if (!/^[A-Za-z_$][\w$]*\.java$/.test(name)) {
      throw new TypeError(`startJavaDriver: ${path} is not a .java file named after its class`);
    }
    if (name in sources) throw new TypeError(`startJavaDriver: two sources are named ${name}`);
    sources[name] = source(path);
  }
  return sources;
}

/** Compiles and starts the driver; resolves once it printed "ready" (its Curator client is connected). */
export async function startJavaDriver(options: JavaDriverOptions): Promise<JavaDriver> {
  const [handlerFile] = options.handlers;
  if (handlerFile === undefined) throw new TypeError('startJavaDriver: name at least one handler');
  const sources = driverSources(options.handlers);
  const compiled = await compileJava({ sources, classpath: findCurator().classpath });
  const child: ChildProcess = compiled.run('DriverMain', [
    options.connectString,
    basename(handlerFile, '.java'),
    String(options.sessionTimeoutMs ?? 30_000),
  ]);

  const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const events: string[] = [];
  const eventWaiters: {
    test: (event: string) => boolean;
    times: number;
    resolve: (event: string) => void;
  }[] = [];
  const matching = (test: (event: string) => boolean) => events.filter(test);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  let ready!: () => void;
  let failed!: (error: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('close', (code) => {
      const error = new Error(`Java driver exited (${code}): ${stderr}`);
      failed(error);
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
      resolve();
    });
  });

  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') return ready();
    if (line.startsWith('! ')) {
      const event = line.slice(2);
      events.push(event);
      for (const waiter of eventWaiters.filter((w) => w.test(event) && matching(w.test).length >= w.times)) {
        eventWaiters.splice(eventWaiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
      return;
    }
    const match = /^(\S+) (ok|err)(?: (.*))?$/.exec(line);
    const entry = match && pending.get(match[1] as string);
    if (!match || !entry) return;
    pending.delete(match[1] as string);
    if (match[2] === 'ok') entry.resolve(match[3] ?? '');
    else entry.reject(new Error(`Java: ${match[3] ?? ''}`));
  });
  await started;

  let nextId = 0;
  const driver: JavaDriver = {
    events,
    call(actor, op, ...args) {
      const words = [actor, op, ...args.map(String)];
      if (words.some((word) => word.length === 0 || /\s/.test(word))) {
        return Promise.reject(
          new TypeError(`driver words must be non-empty without spaces: ${words.join('|')}`),
        );
      }
      const id = String(++nextId);
      return new Promise<string>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.stdin?.write(`${id} ${words.join(' ')}\n`);
      });
    },
    waitForEvent(match, times = 1) {
      const test = typeof match === 'string' ? (event: string) => event === match : match;
      const seen = matching(test)[times - 1];
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => eventWaiters.push({ test, times, resolve }));
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
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
