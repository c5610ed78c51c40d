/**
 * Runs scripts through the Java client of the run's ZooKeeper release: ConformanceDriver.java (with
 * ScriptRun.java, DriverValues.java and Since36Calls.java; Since36.java from 3.6 on) compiled at test time
 * against that release's jars (`findZooKeeper()`), in ONE JVM that runs every script it is sent, one at a
 * time, and prints each session's stream.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { compileJava, findZooKeeper, versionAtLeast } from '@zkwire/testing';
import type { MultiOp, MultiReadOp, Op, Script } from './script.js';
import { chrootOf, type Entry, numberedOps, resolveOp, type ScriptRun } from './stream.js';

const enc = encodeURIComponent;

function multiSpec(ops: (MultiOp | MultiReadOp)[]): string {
  return ops
    .map((sub) => {
      const s = sub as Partial<MultiOp> & { type: string; path: string };
      const data = 'data' in s ? (s.data ?? '') : '';
      const mode = 'mode' in s ? (s.mode ?? '') : '';
      const version = 'version' in s && s.version !== undefined ? String(s.version) : '';
      return [s.type, s.path, data, mode, version].map(enc).join(',');
    })
    .join(';');
}

/** The driver's `key=value` arguments of one (resolved) op. */
function opArgs(op: Op): string[] {
  const args: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(op)) {
    if (key === 'op' || key === 'session' || value === undefined || value === false) continue;
    if (key === 'ops') args.ops = multiSpec(value as MultiOp[]);
    else if (key === 'acl') {
      args.acl = (value as { perms: number; scheme: string; id: string }[])
        .map((e) => `${e.perms}|${e.scheme}|${e.id}`)
        .join(';');
    } else args[key] = String(value);
  }
  return Object.entries(args).map(([k, v]) => `${k}=${enc(v ?? '')}`);
}

/**
 * The op as the Java API must be called to do what ours does. The one API difference handled here, not in
 * the normalizer, because it is about the request: Java's getEphemerals sends its prefix without the chroot
 * (ours adds it), so under a chroot the driver is given the chroot + prefix (accepted-differences.ts lists it).
 */
function javaOp(op: Op, base: string, chroot: string | null): Op {
  const resolved = resolveOp(op, base, chroot);
  if (
    op.op === 'getEphemerals' &&
    resolved.op === 'getEphemerals' &&
    chroot !== null &&
    !op.path.startsWith('!')
  ) {
    const root = chrootOf(base, chroot);
    return { ...resolved, path: resolved.path === '/' ? root : `${root}${resolved.path}` };
  }
  return resolved;
}

/** A started driver. */
export interface JavaConformanceDriver {
  run(script: Script, hostPort: string, base: string): Promise<ScriptRun>;
  close(): Promise<void>;
}

/** Compiles and starts the driver; resolves once it is ready. */
export async function startJavaDriver(): Promise<JavaConformanceDriver> {
  const release = findZooKeeper();
  const files = ['ConformanceDriver.java', 'ScriptRun.java', 'DriverValues.java', 'Since36Calls.java'];
  if (versionAtLeast(release.version, '3.6.0')) files.push('Since36.java');
  const sources = Object.fromEntries(
    files.map((file) => [file, readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')]),
  );
  // slf4j-nop: the client's INFO lines would only fill the pipe.
  const classpath = release.classpath.map((jar) => {
    const nop = jar.replace(/slf4j-simple\.jar$/, 'slf4j-nop.jar');
    return existsSync(nop) ? nop : jar;
  });
  const compiled = await compileJava({ sources, classpath });
  const child: ChildProcess = compiled.run('ConformanceDriver', [], { jvmFlags: ['-Xss512k'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });

  const waiting = new Map<string, { streams: Entry[][]; done: (failure?: string) => void }>();
  let ready!: () => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once('close', (code) => {
      const why = `Java driver exited (${code}): ${stderr}`;
      reject(new Error(why));
      for (const entry of waiting.values()) entry.done(why);
      waiting.clear();
    });
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') return ready();
    const match = /^([EDF]) (\S+)(?: (.*))?$/.exec(line);
    const entry = match && waiting.get(match[2] as string);
    if (!match || !entry) return;
    const rest = match[3] ?? '';
    if (match[1] === 'E') {
      const space = rest.indexOf(' ');
      entry.streams[Number(rest.slice(0, space))]?.push(JSON.parse(rest.slice(space + 1)) as Entry);
    } else {
      waiting.delete(match[2] as string);
      entry.done(match[1] === 'F' ? rest : undefined);
    }
  });
  await started;

  let queue = Promise.resolve();
  let next = 0;
  const run = (script: Script, hostPort: string, base: string): Promise<ScriptRun> => {
    const id = `s${next++}`;
    const result = queue.then(
      () =>
        new Promise<ScriptRun>((resolve) => {
          const streams: Entry[][] = script.sessions.map(() => []);
          waiting.set(id, {
            streams,
            done: (failure) => resolve({ side: 'java', base, streams, ...(failure ? { failure } : {}) }),
          });
          const lines = [`script ${id}`];
          for (const chroot of script.sessions) {
            const root = chrootOf(base, chroot);
            lines.push(`session ${hostPort}${root} ${root || '-'}`);
          }
          for (const { step, batch, op, session } of numberedOps(script)) {
            const chroot = script.sessions[session] ?? null;
            const resolved = javaOp(op, base, chroot);
            lines.push([`op ${batch} ${session} ${step} ${op.op}`, ...opArgs(resolved)].join(' '));
          }
          lines.push('run');
          child.stdin?.write(`${lines.join('\n')}\n`);
        }),
    );
    queue = result.then(() => undefined);
    return result;
  };

  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    await exited;
  };
  return { run, close };
}
