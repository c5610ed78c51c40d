/**
 * Starts the shared Curator driver (../DriverMain.java, its line protocol) with the elections handler of this
 * folder. The colleague's `startJavaDriver` reads handlers from its own folder only and names the class after
 * the file path, so this launcher compiles the same DriverMain with our handler and speaks the same protocol.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { compileJava, findCurator } from '@zkwire/testing';

/** A running Curator driver with the elections handler. */
export interface ElectionsDriver extends AsyncDisposable {
  /** Sends `actor op args...`; resolves with the text after "ok", rejects with the "err" text. */
  call(actor: string, op: string, ...args: (string | number)[]): Promise<string>;
  /** Resolves once `event` has been received `times` times (default once), counting past ones. */
  waitForEvent(event: string, times?: number): Promise<void>;
  /** Events received so far, in order. */
  readonly events: readonly string[];
  /** Closes stdin (the driver closes its Curator recipes and client) and waits for the JVM to exit. */
  close(): Promise<void>;
}

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');

/** Compiles (cached) and starts the driver; resolves once its Curator client is connected. */
export async function startElectionsDriver(
  connectString: string,
  sessionTimeoutMs = 30_000,
): Promise<ElectionsDriver> {
  const compiled = await compileJava({
    sources: {
      'DriverMain.java': read('../DriverMain.java'),
      'DriverHandler.java': read('../DriverHandler.java'),
      'ElectionsHandler.java': read('./ElectionsHandler.java'),
    },
    classpath: findCurator().classpath,
  });
  const child = compiled.run('DriverMain', [connectString, 'ElectionsHandler', String(sessionTimeoutMs)]);
  const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const events: string[] = [];
  const waiters: { event: string; times: number; resolve: () => void }[] = [];
  const count = (event: string) => events.filter((e) => e === event).length;
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
      const error = new Error(`Curator driver exited (${code}): ${stderr}`);
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
      for (const waiter of waiters.filter((w) => w.event === event && count(event) >= w.times)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return;
    }
    const match = /^(\S+) (ok|err)(?: (.*))?$/.exec(line);
    const entry = match ? pending.get(match[1] as string) : undefined;
    if (!match || !entry) return;
    pending.delete(match[1] as string);
    if (match[2] === 'ok') entry.resolve(match[3] ?? '');
    else entry.reject(new Error(`Curator: ${match[3] ?? ''}`));
  });
  await started;

  let nextId = 0;
  const driver: ElectionsDriver = {
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
    waitForEvent(event, times = 1) {
      if (count(event) >= times) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ event, times, resolve }));
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
