/**
 * Drives real curator-x-discovery (5.9.0 from Maven Central by default, `ZKWIRE_CURATOR_VERSION` for another,
 * `debian` for Debian's 5.4.0 under /usr/share/java, with Jackson) from a test:
 * compiles DiscoveryDriver.java and Details.java with javac at test time (cached by `@zkwire/testing`), starts
 * it on a server, and talks to it over stdin/stdout lines (protocol in DiscoveryDriver.java).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { compileJava, findCurator } from '@zkwire/testing';

/** Curator (client, framework, recipes, curator-x-discovery with Jackson) of `version`, with its ZooKeeper client. */
function discoveryClasspath(version?: string): string[] {
  return findCurator({ version, modules: ['curator-x-discovery'] }).classpath;
}

const source = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

/** A running Java discovery driver. */
export interface DiscoveryDriver extends AsyncDisposable {
  /** Sends `op args...`; resolves with the reply text after "ok", rejects with the "err" text. */
  call(op: string, ...args: (string | number)[]): Promise<string>;
  /** `call` whose reply is JSON. */
  json<T = unknown>(op: string, ...args: (string | number)[]): Promise<T>;
  /** Event lines (`! text`), in order. */
  readonly events: string[];
  /** Closes stdin (the driver closes its discoveries and client, then exits) and waits for the process. */
  close(): Promise<void>;
  /** Kills the JVM at once: its session stays until the server expires it. */
  kill(): void;
}

/**
 * Where the driver's discoveries put instances: Curator's standard `<basePath>/<name>/<id>`, or through a
 * DiscoveryPathConstructor (Curator 5.6+) `<basePath>/<name>/instances/<id>`.
 */
export type DriverLayout = 'standard' | 'instances-child';

/** Whether the driver's Curator client compresses data (`enableCompression()`, Curator 5.8+). */
export type DriverCompression = 'plain' | 'gzip';

/** Compiles and starts the driver; resolves once it printed "ready". */
export async function startDiscoveryDriver(
  connectString: string,
  basePath: string,
  layout: DriverLayout = 'standard',
  compression: DriverCompression = 'plain',
): Promise<DiscoveryDriver> {
  const compiled = await compileJava({
    sources: {
      'DiscoveryDriver.java': source('./DiscoveryDriver.java'),
      'Details.java': source('./Details.java'),
    },
    classpath: discoveryClasspath(),
  });
  const child: ChildProcess = compiled.run(
    'DiscoveryDriver',
    [connectString, basePath, '30000', layout, compression],
    {
      jvmFlags: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
    },
  );
  const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const events: string[] = [];
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
      const error = new Error(`Java discovery driver exited (${code}): ${stderr}`);
      failed(error);
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
      resolve();
    });
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') return ready();
    if (line.startsWith('! ')) {
      events.push(line.slice(2));
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
  const driver: DiscoveryDriver = {
    events,
    call(op, ...args) {
      const words = [op, ...args.map(String)];
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
    async json(op, ...args) {
      return JSON.parse(await driver.call(op, ...args));
    },
    kill() {
      child.kill('SIGKILL');
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
