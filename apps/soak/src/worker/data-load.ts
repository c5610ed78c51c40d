/**
 * The Node side of the data workloads: a lock-safe DistributedQueue (produced and consumed; Curator's
 * processes share it), plain writes to the data tree (each acknowledged one logged for the final read-back),
 * and a CuratorCache of that tree whose content is dumped at the end.
 */
import { DistributedQueue, stringSerializer } from '@zkwire/queues';
import { CuratorCache } from '@zkwire/recipes';
import type { SnapshotNode } from '../events.js';
import { SoakPaths } from '../paths.js';
import { errorName } from './guard.js';
import { type LoadContext, sleep } from './holders.js';

export function openQueue(ctx: LoadContext): DistributedQueue<string> {
  return new DistributedQueue(ctx.client, SoakPaths.queue, {
    serializer: stringSerializer,
    lockPath: SoakPaths.queueLocks,
    onError: (error) =>
      ctx.log.write({ kind: 'op', op: 'queue-consume', ok: false, error: errorName(error) }),
  });
}

export async function produceLoop(ctx: LoadContext, queue: DistributedQueue<string>): Promise<void> {
  for (let n = 0; !ctx.stopping(); n += 1) {
    const id = `${ctx.proc}-q${n}`;
    try {
      await queue.put(id, { timeoutMs: 10_000 });
      ctx.log.write({ kind: 'put', id });
    } catch (error) {
      ctx.log.write({ kind: 'op', op: 'queue-put', ok: false, error: errorName(error) });
    }
    await sleep(100 + ctx.random() * 200);
  }
}

/** Consumes until `signal` fires; a consumer ended by a session expiry is started again. */
export async function consumeLoop(
  ctx: LoadContext,
  queue: DistributedQueue<string>,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      await queue.consume((id) => ctx.log.write({ kind: 'consume', id }), { signal });
    } catch (error) {
      ctx.log.write({ kind: 'op', op: 'queue-consumer', ok: false, error: errorName(error) });
      // The consumer is documented to end only on expiry or close: keep the whole error for diagnosis.
      process.stderr.write(
        `${new Date().toISOString()} queue consumer ended: ${(error as Error)?.stack ?? String(error)}\n`,
      );
      await sleep(300);
    }
  }
}

/** Creates, sets and deletes this process's own nodes; a write whose reply was lost retires its path. */
export async function writeLoop(ctx: LoadContext): Promise<void> {
  const live = new Map<string, { version: number; value: number }>();
  for (let n = 0; !ctx.stopping(); n += 1) {
    const roll = ctx.random();
    const owned = [...live.keys()];
    const path =
      owned.length < 4 || roll < 0.4
        ? `${SoakPaths.writes}/${ctx.proc}-${n}`
        : owned[Math.floor(ctx.random() * owned.length)]!;
    const node = live.get(path);
    try {
      if (!node) {
        const data = `${ctx.proc}:${n}:0`;
        const { stat } = await ctx.client.create2(path, data, { timeoutMs: 5_000 });
        live.set(path, { version: stat.version, value: 0 });
        ctx.log.write({ kind: 'write', path, op: 'create', data, zxid: String(stat.czxid) });
      } else if (roll < 0.85) {
        const value = node.value + 1;
        const data = `${path}:${value}`;
        const stat = await ctx.client.setData(path, data, { timeoutMs: 5_000, version: node.version });
        live.set(path, { version: stat.version, value });
        ctx.log.write({ kind: 'write', path, op: 'set', data, zxid: String(stat.mzxid) });
      } else {
        await ctx.client.delete(path, { timeoutMs: 5_000, version: node.version });
        live.delete(path);
        ctx.log.write({ kind: 'write', path, op: 'delete' });
      }
    } catch (error) {
      live.delete(path);
      ctx.log.write({ kind: 'write-unknown', path, error: errorName(error) });
    }
    await sleep(100 + ctx.random() * 250);
  }
}

export async function startCache(ctx: LoadContext): Promise<CuratorCache> {
  const cache = new CuratorCache(ctx.client, SoakPaths.writes);
  await cache.start();
  return cache;
}

/** The cache's view of the data tree below its root (the root itself left out, as in the final read). */
export function cacheSnapshot(cache: CuratorCache): Record<string, SnapshotNode> {
  const nodes: Record<string, SnapshotNode> = {};
  for (const child of cache.entries()) {
    if (child.path === SoakPaths.writes) continue;
    nodes[child.path] = {
      data: Buffer.from(child.data ?? new Uint8Array()).toString('utf8'),
      mzxid: String(child.stat.mzxid),
    };
  }
  return nodes;
}
