/**
 * Runs a script through our client: one client per session, every op of a batch issued in one tick, each
 * result recorded by the first reaction on the call's promise, each event by its watcher.
 */
import {
  type ACL,
  type Op as ClientOp,
  connect,
  InvalidArgumentError,
  MultiError,
  type OpResult,
  op as opBuilder,
  type ReadOutcome,
  readOp,
  type Stat,
  type Watcher,
  type ZooKeeperClient,
  ZooKeeperError,
} from '../../src/index.js';
import type { AclEntry, MultiOp, Op, Script } from './script.js';
import { watcherNames } from './script.js';
import { chrootOf, type Entry, numberedOps, type RawStat, resolveOp, type ScriptRun } from './stream.js';

/** Every Stat field, 64-bit ones as decimal strings (the shape the Java driver prints too). */
export function rawStat(stat: Stat): RawStat {
  return {
    czxid: String(stat.czxid),
    mzxid: String(stat.mzxid),
    ctime: String(stat.ctime),
    mtime: String(stat.mtime),
    version: stat.version,
    cversion: stat.cversion,
    aversion: stat.aversion,
    ephemeralOwner: String(stat.ephemeralOwner),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
    pzxid: String(stat.pzxid),
  };
}

const toAcl = (entries: AclEntry[] | undefined): ACL[] | undefined =>
  entries?.map((e) => ({ perms: e.perms, id: { scheme: e.scheme, id: e.id } }));

function multiOp(sub: MultiOp): ClientOp {
  switch (sub.type) {
    case 'create':
      return opBuilder.create(sub.path, sub.data ?? '', { mode: sub.mode ?? 'persistent' });
    case 'delete':
      return opBuilder.delete(sub.path, sub.version ?? -1);
    case 'setData':
      return opBuilder.setData(sub.path, sub.data, sub.version ?? -1);
    case 'check':
      return opBuilder.check(sub.path, sub.version);
  }
}

function multiResult(result: OpResult): unknown {
  if (result.type === 'create') return { type: 'create', path: result.path };
  if (result.type === 'setData') return { type: 'setData', stat: rawStat(result.stat) };
  return { type: result.type };
}

function readOutcome(outcome: ReadOutcome): unknown {
  if (outcome instanceof ZooKeeperError) return { error: outcome.code };
  if (outcome.type === 'getData') {
    return { type: 'getData', data: outcome.data.toString('utf8'), stat: rawStat(outcome.stat) };
  }
  return { type: 'getChildren', children: outcome.children };
}

/** Starts one call; returns its promise and how to turn its value into the stream's JSON shape. */
function call(
  zk: ZooKeeperClient,
  op: Op,
  watcher: (name: string | undefined) => Watcher | undefined,
): { promise: Promise<unknown>; shape: (value: never) => unknown } {
  const same = (value: unknown) => value;
  const none = () => null;
  const stat = (value: Stat) => rawStat(value);
  switch (op.op) {
    case 'create': {
      const options = { mode: op.mode ?? 'persistent', acl: toAcl(op.acl), ttlMs: op.ttl } as const;
      if (op.stat) {
        return {
          promise: zk.create2(op.path, op.data ?? '', options),
          shape: (v: { path: string; stat: Stat }) => ({ path: v.path, stat: rawStat(v.stat) }),
        };
      }
      return { promise: zk.create(op.path, op.data ?? '', options), shape: same };
    }
    case 'delete':
      return { promise: zk.delete(op.path, { version: op.version ?? -1 }), shape: none };
    case 'exists':
      return {
        promise: zk.exists(op.path, { watch: watcher(op.watch) }),
        shape: (v: Stat | null) => (v === null ? null : rawStat(v)),
      };
    case 'getData':
      return {
        promise: zk.getData(op.path, { watch: watcher(op.watch) }),
        shape: (v: { data: Buffer; stat: Stat }) => ({
          data: v.data.toString('utf8'),
          stat: rawStat(v.stat),
        }),
      };
    case 'getChildren':
      return { promise: zk.getChildren(op.path, { watch: watcher(op.watch) }), shape: same };
    case 'getChildren2':
      return {
        promise: zk.getChildren2(op.path, { watch: watcher(op.watch) }),
        shape: (v: { children: string[]; stat: Stat }) => ({ children: v.children, stat: rawStat(v.stat) }),
      };
    case 'setData':
      return { promise: zk.setData(op.path, op.data, { version: op.version ?? -1 }), shape: stat };
    case 'getACL':
      return {
        promise: zk.getACL(op.path),
        shape: (v: { acl: ACL[]; stat: Stat }) => ({
          acl: v.acl.map((a) => ({ perms: a.perms, scheme: a.id.scheme, id: a.id.id })),
          stat: rawStat(v.stat),
        }),
      };
    case 'setACL':
      return {
        promise: zk.setACL(op.path, toAcl(op.acl) ?? [], { version: op.version ?? -1 }),
        shape: stat,
      };
    case 'sync':
      return { promise: zk.sync(op.path), shape: none };
    case 'getAllChildrenNumber':
      return { promise: zk.getAllChildrenNumber(op.path), shape: same };
    case 'getEphemerals':
      return { promise: zk.getEphemerals(op.path), shape: same };
    case 'multi':
      return {
        promise: zk.multi(op.ops.map(multiOp)),
        shape: (v: OpResult[]) => v.map(multiResult),
      };
    case 'multiRead':
      return {
        promise: zk.multiRead(
          op.ops.map((sub) =>
            sub.type === 'getData' ? readOp.getData(sub.path) : readOp.getChildren(sub.path),
          ),
        ),
        shape: (v: ReadOutcome[]) => v.map(readOutcome),
      };
    case 'addWatch':
      return { promise: zk.addWatch(op.path, op.mode, watcher(op.watch) as Watcher), shape: none };
    case 'removeWatches':
      return {
        promise: zk.removeWatches(op.path, op.type, { watcher: watcher(op.watch), local: op.local }),
        shape: none,
      };
    case 'checkWatches':
      return { promise: zk.checkWatches(op.path, op.type), shape: none };
    case 'addAuth':
      return { promise: zk.addAuth(op.scheme, op.auth), shape: none };
  }
}

function errorEntry(step: number, op: string, error: unknown): Entry {
  if (!(error instanceof ZooKeeperError)) {
    return { kind: 'error', step, op, code: error instanceof Error ? error.name : String(error) };
  }
  const entry: Entry = { kind: 'error', step, op, code: error.code };
  if (error instanceof MultiError) entry.detail = error.results.map((r) => r?.code ?? 'OK');
  if (error instanceof InvalidArgumentError) entry.argument = true;
  return entry;
}

/** A batch that never settles fails the run (as the Java driver's 30 s latch does) instead of the test. */
async function within<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `script` under `base` (which, and each session's chroot node, must exist) against `hostPort`.
 * Never throws for what an op does: a failure of the run itself is reported in `failure`.
 */
export async function runOurs(script: Script, hostPort: string, base: string): Promise<ScriptRun> {
  const streams: Entry[][] = script.sessions.map(() => []);
  const recording = script.sessions.map(() => true);
  const clients: ZooKeeperClient[] = [];
  try {
    for (const chroot of script.sessions) {
      clients.push(
        await connect({ connectString: `${hostPort}${chrootOf(base, chroot)}` }, { timeoutMs: 20_000 }),
      );
    }
    const watchers = watcherNames(script).map((names, session) => {
      const table = new Map<string, Watcher>();
      for (const name of names) {
        table.set(name, (event) => {
          if (!recording[session]) return;
          const { type, path, zxid } = event;
          streams[session]?.push({
            kind: 'event',
            watcher: name,
            type,
            path,
            ...(zxid === undefined ? {} : { zxid: String(zxid) }),
          });
        });
      }
      return table;
    });
    const steps = numberedOps(script);
    for (let batch = 0; batch < script.batches.length; batch++) {
      const settled: Promise<unknown>[] = [];
      for (const { step, op, session, batch: b } of steps) {
        if (b !== batch) continue;
        const stream = streams[session] as Entry[];
        const zk = clients[session] as ZooKeeperClient;
        const resolved = resolveOp(op, base, script.sessions[session] ?? null);
        try {
          const { promise, shape } = call(zk, resolved, (name) =>
            name === undefined ? undefined : watchers[session]?.get(name),
          );
          settled.push(
            promise.then(
              (value) => void stream.push({ kind: 'result', step, op: op.op, value: shape(value as never) }),
              (error: unknown) => void stream.push(errorEntry(step, op.op, error)),
            ),
          );
        } catch (error) {
          stream.push({ ...errorEntry(step, op.op, error), synchronous: true } as Entry);
        }
      }
      await within(Promise.all(settled), `batch ${batch}`);
    }
    // Barrier: every event caused before it has reached its watcher once its reply is read.
    await within(
      Promise.all(
        clients.map((zk, session) => zk.sync('/').finally(() => void (recording[session] = false))),
      ),
      'the barrier',
    );
    return { side: 'ours', base, streams };
  } catch (error) {
    return { side: 'ours', base, streams, failure: String(error) };
  } finally {
    recording.fill(false);
    await Promise.all(clients.map((zk) => zk.close().catch(() => {})));
  }
}
