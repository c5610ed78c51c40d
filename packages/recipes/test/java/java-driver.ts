/**
 * Drives real Curator 5.4.0 (Debian's jars under /usr/share/java) from a test: compiles DriverMain.java plus
 * one handler with javac at test time (cached by `@zkwire/testing`), starts it on a server, and talks to it
 * over stdin/stdout lines (protocol in DriverMain.java). Reusable by any recipe: write a `DriverHandler`
 * class, pass its file name here.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { compileJava, findCurator } from '@zkwire/testing';

/** Options of {@link startJavaDriver}. */
export interface JavaDriverOptions {
  connectString: string;
  /** File names of handler sources beside this file, e.g. ['LockHandler.java']; the first names the class. */
  handlers: string[];
  /** Curator's session timeout (default 30000). */
  sessionTimeoutMs?: number;
}

/** A running Java driver. */
export interface JavaDriver extends AsyncDisposable {
  /** Sends `actor op args...`; resolves with the reply text after "ok", rejects with the "err" text. */
  call(actor: string, op: string, ...args: (string | number)[]): Promise<string>;
  /** Event lines the handler sent (`! text`), in order. */
  readonly events: string[];
  /** Resolves with the first event (past or future) matching `predicate`. */
  waitForEvent(predicate: (event: string) => boolean): Promise<string>;
  /** Closes stdin (the driver closes its Curator client and exits) and waits for the process to end. */
  close(): Promise<void>;
}

function source(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}

/** Compiles and starts the driver; resolves once it printed "ready" (its Curator client is connected). */
export async function startJavaDriver(options: JavaDriverOptions): Promise<JavaDriver> {
  const [handlerFile] = options.handlers;
  if (handlerFile === undefined) throw new TypeError('startJavaDriver: name at least one handler');
  const sources: Record<string, string> = {
    'DriverMain.java': source('DriverMain.java'),
    'DriverHandler.java': source('DriverHandler.java'),
  };
  for (const name of options.handlers) sources[name] = source(name);
  const compiled = await compileJava({ sources, classpath: findCurator().classpath });
  const child: ChildProcess = compiled.run('DriverMain', [
    options.connectString,
    handlerFile.replace(/\.java$/, ''),
    String(options.sessionTimeoutMs ?? 30_000),
  ]);

  const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const events: string[] = [];
  const eventWaiters: { predicate: (event: string) => boolean; resolve: (event: string) => void }[] = [];
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
      for (const waiter of eventWaiters.filter((w) => w.predicate(event))) {
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
    waitForEvent(predicate) {
      const seen = events.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => eventWaiters.push({ predicate, resolve }));
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
