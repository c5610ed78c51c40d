/**
 * Curator's QueueSharder run by java/CuratorSharderDriver.java (compiled at test time against Curator's
 * jars) as one long-lived JVM: the test sends it puts and reads its leadership and shards as it reports them.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compileJava, findCurator } from '@zkwire/testing';

const source = readFileSync(new URL('../java/CuratorSharderDriver.java', import.meta.url), 'utf8');

/** A running Curator QueueSharder. */
export interface JavaSharder {
  /** Its last report: whether it leads, and the shards it knows. */
  readonly leader: boolean;
  readonly shards: readonly string[];
  /** Every item it put so far. */
  readonly puts: readonly string[];
  /** Puts `<prefix>-0` … `<prefix>-<count-1>` one by one through `getQueue()`, resolving when all are in. */
  put(count: number, prefix: string): Promise<void>;
  /** Closes the sharder and waits for the JVM to exit. */
  stop(): Promise<void>;
  /** Kills the JVM (test clean-up). */
  kill(): void;
}

/** Starts a Curator QueueSharder on `queuePath` with the given policies; resolves once it reported. */
export async function startJavaSharder(options: {
  connectString: string;
  queuePath: string;
  leaderPath: string;
  threshold: number;
  checkMs: number;
  maxQueues: number;
}): Promise<JavaSharder> {
  const java = await compileJava({
    sources: { 'CuratorSharderDriver.java': source },
    classpath: findCurator().classpath,
  });
  const { connectString, queuePath, leaderPath, threshold, checkMs, maxQueues } = options;
  const child: ChildProcess = java.run(
    'CuratorSharderDriver',
    [connectString, queuePath, leaderPath, String(threshold), String(checkMs), String(maxQueues)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let leader = false;
  let shards: string[] = [];
  const puts: string[] = [];
  let putsDone = 0;
  let stderr = '';
  let buffered = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [kind, a, b] = line.split('\t');
      if (kind === 'STATE') {
        leader = a === 'true';
        shards = b ? b.split(',') : [];
      } else if (kind === 'PUT' && a !== undefined) puts.push(a);
      else if (kind === 'PUTDONE') putsDone += 1;
    }
    wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-3_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    wake();
  });
  const until = (check: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const test = () => {
        if (check()) {
          waiters.delete(test);
          resolve();
        } else if (ended) {
          waiters.delete(test);
          reject(new Error(`the Curator sharder exited before ${what}:\n${stderr}`));
        }
      };
      waiters.add(test);
      test();
    });
  await until(() => shards.length > 0, 'its first report');
  return {
    get leader() {
      return leader;
    },
    get shards() {
      return shards;
    },
    puts,
    async put(count, prefix) {
      const target = putsDone + 1;
      child.stdin?.write(`put ${count} ${prefix}\n`);
      await until(() => putsDone >= target, `putting ${prefix}`);
    },
    async stop() {
      child.stdin?.end('stop\n');
      const code = await exited;
      if (code !== 0) throw new Error(`the Curator sharder exited with ${code}:\n${stderr}`);
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
