/**
 * `npm run soak`: a bounded run on a 3-server ensemble where Node workers (our client and recipes) and
 * Curator drivers share a mutex, a semaphore, a leader latch, a lock-safe queue and a data tree, while a
 * seeded schedule kills members and cuts, stalls and expires clients. Afterwards the checker reads every
 * process's event log; exit code 1 on any violation. See docs/reliability.md.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compileJava,
  type FaultProxy,
  findCurator,
  findJava,
  seededRandom,
  startEnsemble,
  startFaultProxy,
} from '@zkwire/testing';
import { connect, isNodeExists, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { checkAll, SEMAPHORE_LEASES } from './checker/index.js';
import { parseOptions, replayCommand, type SoakOptions, SoakUsageError } from './cli-options.js';
import { EventLog } from './event-log.js';
import { parseEventLog, type SnapshotNode } from './events.js';
import { applyFault } from './faults.js';
import { EMPTY_GUARD, PERSISTENT_PATHS, SoakPaths } from './paths.js';
import { type SoakProcess, startJavaDriver, startNodeWorker } from './processes.js';
import { formatSchedule, makeSchedule } from './schedule.js';
import { formatSummary } from './summary.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const say = (line: string) =>
  process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function prepareTree(admin: ZooKeeperClient): Promise<void> {
  for (const path of PERSISTENT_PATHS)
    await admin.create(path, '').catch((e) => {
      if (!isNodeExists(e)) throw e;
    });
  for (const guard of [SoakPaths.mutexGuard, SoakPaths.leaderGuard]) {
    await admin.create(guard, EMPTY_GUARD).catch((e) => {
      if (!isNodeExists(e)) throw e;
    });
  }
}

async function compileDriver(): Promise<{ java: string; classpath: string[] }> {
  const source = readFileSync(new URL('./java/SoakDriver.java', import.meta.url), 'utf8');
  const classpath = findCurator().classpath.map((jar) => jar.replace(/slf4j-simple\.jar$/, 'slf4j-nop.jar'));
  const compiled = await compileJava({ sources: { 'SoakDriver.java': source }, classpath });
  return { java: findJava(), classpath: compiled.classpath };
}

/** Waits until the queue and its lock dir stay empty (every item consumed), up to `timeoutMs`. */
async function drainQueue(admin: ZooKeeperClient, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let emptyPolls = 0;
  while (Date.now() < deadline) {
    const items = await admin.getChildren(SoakPaths.queue, { timeoutMs: 5_000 }).catch(() => ['?']);
    const locks = await admin.getChildren(SoakPaths.queueLocks, { timeoutMs: 5_000 }).catch(() => ['?']);
    emptyPolls = items.length === 0 && locks.length === 0 ? emptyPolls + 1 : 0;
    if (emptyPolls >= 3) return true;
    await sleep(1_000);
  }
  return false;
}

/** What is left in the queue and its lock dir, with the owning sessions of the locks: for a drain that failed. */
async function describeQueue(admin: ZooKeeperClient): Promise<string> {
  const items = await admin.getChildren(SoakPaths.queue, { timeoutMs: 5_000 }).catch(() => []);
  const locks: string[] = [];
  for (const name of await admin.getChildren(SoakPaths.queueLocks, { timeoutMs: 5_000 }).catch(() => [])) {
    const stat = await admin
      .exists(`${SoakPaths.queueLocks}/${name}`, { timeoutMs: 5_000 })
      .catch(() => null);
    locks.push(`${name} (session ${stat?.ephemeralOwner ?? '?'})`);
  }
  return `${items.length} item node(s) left [${items.slice(0, 10).join(', ')}], ${locks.length} lock(s) [${locks.slice(0, 10).join(', ')}]`;
}

async function readTree(admin: ZooKeeperClient): Promise<Record<string, SnapshotNode>> {
  const nodes: Record<string, SnapshotNode> = {};
  for (const name of await admin.getChildren(SoakPaths.writes, { timeoutMs: 10_000 })) {
    const path = `${SoakPaths.writes}/${name}`;
    const { data, stat } = await admin.getData(path, { timeoutMs: 10_000 });
    nodes[path] = { data: data.toString('utf8'), mzxid: String(stat.mzxid) };
  }
  return nodes;
}

async function run(options: SoakOptions): Promise<number> {
  const clients = [
    ...Array.from({ length: options.nodeWorkers }, (_, i) => `node-${i + 1}`),
    ...Array.from({ length: options.javaWorkers }, (_, i) => `java-${i + 1}`),
  ];
  const schedule = makeSchedule({
    seed: options.seed,
    minutes: options.minutes,
    clients,
    sessionTimeoutMs: options.sessionTimeoutMs,
  });
  const replay = replayCommand(options);
  const logsDir = options.logs ?? mkdtempSync(join(tmpdir(), 'zkwire-soak-'));
  mkdirSync(logsDir, { recursive: true });
  say(
    `seed ${options.seed}, ${options.minutes} min, clients ${clients.join(' ')}, session timeout ${options.sessionTimeoutMs} ms`,
  );
  say(`replay: ${replay}`);
  say(`logs: ${logsDir}`);
  say(
    `schedule (${schedule.length} faults; members are picked by role when the fault comes):\n${formatSchedule(schedule)}`,
  );

  const runnerLog = new EventLog(join(logsDir, 'runner.jsonl'), 'runner');
  const java = options.javaWorkers > 0 ? await compileDriver() : undefined;
  await using ensemble = await startEnsemble({ size: 3, heapMb: 96 });
  const proxies = new Map<string, FaultProxy[]>();
  const processes: SoakProcess[] = [];
  const notes: string[] = [];
  try {
    const admin = await connect({
      connectString: ensemble.connectString,
      sessionTimeoutMs: 30_000,
      autoRecreateSession: true,
    });
    await prepareTree(admin);
    for (const [i, proc] of clients.entries()) {
      const set = await Promise.all(
        ensemble.members.map((m) => startFaultProxy({ host: m.host, port: m.port })),
      );
      proxies.set(proc, set);
      const spec = {
        proc,
        connectString: set.map((p) => p.connectString).join(','),
        logPath: join(logsDir, `${proc}.jsonl`),
        sessionTimeoutMs: options.sessionTimeoutMs,
        seed: options.seed * 31 + i,
        leases: SEMAPHORE_LEASES,
      };
      processes.push(
        proc.startsWith('java') && java
          ? startJavaDriver(java, spec, logsDir)
          : startNodeWorker(spec, logsDir),
      );
    }
    const ready = await Promise.all(processes.map((p) => p.waitFor('ready', 90_000)));
    if (ready.includes(false))
      throw new Error(
        `not ready: ${processes
          .filter((_, i) => !ready[i])
          .map((p) => p.name)
          .join(', ')} (see ${logsDir}/*.stderr.log)`,
      );
    say('load running');

    const start = Date.now();
    const random = seededRandom(options.seed ^ 0x5eed);
    for (const fault of schedule) {
      await sleep(start + fault.atMs - Date.now());
      try {
        await ensemble.waitForQuorum();
        const hit = await applyFault(fault, { ensemble, proxies }, random);
        runnerLog.write({ kind: 'fault', fault: fault.kind, target: hit });
        say(`${fault.kind} ${hit} (${fault.durationMs} ms)`);
      } catch (error) {
        runnerLog.write({ kind: 'op', op: `fault ${fault.kind}`, ok: false, error: String(error) });
        say(`fault ${fault.kind} failed: ${String(error)}`);
      }
    }
    await sleep(start + options.minutes * 60_000 - Date.now());

    const died = processes.filter((p) => p.exited).map((p) => p.name);
    if (died.length > 0)
      notes.push(`exited before the end of the load: ${died.join(', ')} (see their stderr logs)`);
    say('stopping the load; draining the queue');
    for (const set of proxies.values()) for (const proxy of set) proxy.resume();
    await ensemble.waitForQuorum();
    for (const p of processes) p.send('stop');
    await Promise.all(processes.map((p) => p.waitFor('stopped', 60_000)));
    const drained = await drainQueue(admin, 120_000);
    if (!drained) notes.push(`the queue did not drain within 120 s: ${await describeQueue(admin)}`);
    await sleep(3_000); // caches catch up with the last writes
    for (const p of processes) if (p.name.startsWith('node')) p.send('dump');
    for (const p of processes.filter((p) => p.name.startsWith('node'))) {
      if (!(await p.waitFor('dumped', 30_000))) notes.push(`${p.name} did not dump its cache: not compared`);
    }
    runnerLog.write({ kind: 'final-read', root: SoakPaths.writes, nodes: await readTree(admin) });
    await admin.close();
  } finally {
    await Promise.all(processes.map((p) => p.end(15_000)));
    for (const set of proxies.values()) await Promise.all(set.map((p) => p.close()));
    runnerLog.close();
  }

  const events = [runnerLog, ...processes].flatMap((p) =>
    parseEventLog(readFileSync(p instanceof EventLog ? join(logsDir, 'runner.jsonl') : p.logPath, 'utf8')),
  );
  const violations = checkAll(events);
  process.stdout.write(`${formatSummary(events, violations, replay, notes)}\nlogs: ${logsDir}\n`);
  return violations.length === 0 ? 0 : 1;
}

try {
  const options = parseOptions(process.argv.slice(2), () => Math.floor(Math.random() * 1_000_000));
  // Exit explicitly: the verdict is printed and every server and process is stopped; a handle left behind by
  // a client that lived through the faults must not keep the command from returning.
  process.exit(await run(options));
} catch (error) {
  process.stderr.write(
    `${error instanceof SoakUsageError ? 'usage: ' : 'soak failed: '}${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
