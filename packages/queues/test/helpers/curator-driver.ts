/**
 * The Curator 5.4.0 queue driver (java/CuratorQueueDriver.java), compiled with javac at test time against
 * Debian's jars and run as one JVM per command.
 */
import { readFileSync } from 'node:fs';
import { type CompiledJava, compileJava, findCurator } from '@zkwire/testing';

const source = readFileSync(new URL('../java/CuratorQueueDriver.java', import.meta.url), 'utf8');

/** The Curator queue kinds the driver builds. */
export type QueueKind = 'plain' | 'priority' | 'delay' | 'id';

/** One item a Java consumer received, with the Java clock at delivery. */
export interface JavaDelivery {
  item: string;
  at: number;
}

/** Runs driver commands against one server. */
export interface CuratorDriver {
  /** One Curator `put` per `[arg, text]` (arg: ignored, priority, due epoch ms, or id by kind). */
  put(path: string, kind: QueueKind, entries: [string | number, string][]): Promise<void>;
  /** One Curator `putMulti` of `texts`. */
  putMulti(
    path: string,
    kind: Exclude<QueueKind, 'id'>,
    arg: string | number,
    texts: string[],
  ): Promise<void>;
  /** A Curator consumer until `count` items came. */
  consume(path: string, kind: QueueKind, count: number, lockPath?: string): Promise<JavaDelivery[]>;
  /**
   * A Curator consumer until `count` items came, watched live: `seen` grows as Java prints each item,
   * `firstItem` resolves at Java's first item (rejects if Java ends without one), `done` when the JVM ends.
   */
  consumeLive(path: string, kind: QueueKind, count: number, lockPath?: string): LiveJavaConsumer;
}

/** A running Java consumer (see {@link CuratorDriver.consumeLive}). */
export interface LiveJavaConsumer {
  readonly seen: JavaDelivery[];
  readonly firstItem: Promise<void>;
  readonly done: Promise<JavaDelivery[]>;
}

function parseItems(stdout: string): JavaDelivery[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('ITEM\t'))
    .map((line) => {
      const [, item, at] = line.split('\t');
      return { item: item ?? '', at: Number(at) };
    });
}

/** Compiles the driver (cached by source hash) and binds it to `connectString`. */
export async function curatorDriver(connectString: string): Promise<CuratorDriver> {
  const java: CompiledJava = await compileJava({
    sources: { 'CuratorQueueDriver.java': source },
    classpath: findCurator().classpath,
  });
  const run = async (args: string[]): Promise<string> => {
    const result = await java.exec('CuratorQueueDriver', [connectString, ...args]);
    if (result.code !== 0 || !result.stdout.includes('DONE')) {
      const what = args.slice(0, 3).join(' ');
      throw new Error(`Curator driver ${what} failed (${result.code}):\n${result.stderr.slice(-3000)}`);
    }
    return result.stdout;
  };
  const lock = (lockPath?: string) => (lockPath ? [lockPath] : []);
  return {
    async put(path, kind, entries) {
      await run(['put', path, kind, ...entries.map(([arg, text]) => `${arg}=${text}`)]);
    },
    async putMulti(path, kind, arg, texts) {
      await run(['putMulti', path, kind, String(arg), ...texts]);
    },
    async consume(path, kind, count, lockPath) {
      return parseItems(await run(['consume', path, kind, String(count), ...lock(lockPath)]));
    },
    consumeLive(path, kind, count, lockPath) {
      const args = [connectString, 'consume', path, kind, String(count), ...lock(lockPath)];
      const child = java.run('CuratorQueueDriver', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const seen: JavaDelivery[] = [];
      let stdout = '';
      let stderr = '';
      let onFirst: () => void = () => {};
      const firstItem = new Promise<void>((resolve) => {
        onFirst = resolve;
      });
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const lines = stdout.split('\n');
        stdout = lines.pop() ?? '';
        seen.push(...parseItems(lines.join('\n')));
        if (seen.length > 0) onFirst();
      });
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-3000);
      });
      const done = new Promise<JavaDelivery[]>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => {
          if (code === 0) resolve(seen);
          else reject(new Error(`Curator driver consume ${path} failed (${code}):\n${stderr}`));
        });
      });
      return {
        seen,
        // Ends with the JVM too, so a consumer that never gets an item fails the test instead of hanging it.
        firstItem: Promise.race([
          firstItem,
          done.then(() => {
            if (seen.length === 0) throw new Error('the Java consumer ended without an item');
          }),
        ]),
        done,
      };
    },
  };
}
