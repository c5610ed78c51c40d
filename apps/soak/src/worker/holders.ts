/**
 * The Node side of the hold workloads: an InterProcessMutex and an InterProcessSemaphoreV2 taken in a loop,
 * and a LeaderLatch stood in. Every hold makes a few writes while it lasts (fenced through the guard for the
 * mutex and the leader, plain markers for the semaphore) and logs their zxids for the checker.
 */
import { InterProcessMutex, InterProcessSemaphoreV2, LeaderLatch } from '@zkwire/recipes';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import type { EventLog } from '../event-log.js';
import { SoakPaths } from '../paths.js';
import { errorName, fencedWrite, markWrite } from './guard.js';

export interface LoadContext {
  client: ZooKeeperClient;
  log: EventLog;
  proc: string;
  /** True once the runner asked the load to stop. */
  stopping: () => boolean;
  random: () => number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function czxidOf(client: ZooKeeperClient, path: string | undefined): Promise<string> {
  if (!path) return '0';
  try {
    return String((await client.exists(path, { timeoutMs: 3_000 }))?.czxid ?? 0n);
  } catch {
    return '0';
  }
}

/** Writes through the guard up to `writes` times while `alive()`; logs every outcome. */
async function guardedWrites(
  ctx: LoadContext,
  resource: 'mutex' | 'leader',
  hold: string,
  token: number,
  writes: number,
  alive: () => boolean,
): Promise<void> {
  const path = resource === 'mutex' ? SoakPaths.mutexGuard : SoakPaths.leaderGuard;
  for (let i = 0; i < writes; i += 1) {
    const outcome = await fencedWrite(ctx.client, path, token, hold, alive);
    if (outcome.kind === 'accepted') {
      ctx.log.write({ kind: 'hold-write', resource, hold, token, zxid: String(outcome.zxid), fenced: true });
    } else if (outcome.kind === 'rejected') {
      ctx.log.write({ kind: 'guard-reject', resource, hold, token, seen: outcome.seen });
      return;
    } else {
      ctx.log.write({ kind: 'op', op: `${resource}-write`, ok: false, error: outcome.why });
      return;
    }
    await sleep(20 + ctx.random() * 120);
  }
}

export async function mutexLoop(ctx: LoadContext): Promise<void> {
  const mutex = new InterProcessMutex(ctx.client, SoakPaths.mutex);
  for (let n = 0; !ctx.stopping(); n += 1) {
    let acquired = false;
    try {
      acquired = await mutex.acquire({ timeoutMs: 5_000 });
    } catch (error) {
      ctx.log.write({ kind: 'op', op: 'mutex-acquire', ok: false, error: errorName(error) });
      await sleep(300);
      continue;
    }
    if (!acquired) {
      ctx.log.write({ kind: 'op', op: 'mutex-acquire', ok: false, error: 'timeout' });
      continue;
    }
    const hold = `${ctx.proc}-m${n}`;
    const token = mutex.fencingToken ?? -1;
    const lost = mutex.lostSignal;
    const node = mutex.lockNodePath ?? '';
    const czxid = await czxidOf(ctx.client, node);
    ctx.log.write({
      kind: 'acquire',
      resource: 'mutex',
      hold,
      token,
      node,
      czxid,
      session: String(ctx.client.sessionId),
    });
    await guardedWrites(ctx, 'mutex', hold, token, 3, () => !lost?.aborted);
    let reason = lost?.aborted ? 'lost' : 'released';
    try {
      await mutex.release();
    } catch (error) {
      reason = `release failed: ${errorName(error)}`;
    }
    ctx.log.write({ kind: 'release', resource: 'mutex', hold, reason });
    await sleep(ctx.random() * 200);
  }
}

export async function semaphoreLoop(ctx: LoadContext, leases: number): Promise<void> {
  const semaphore = new InterProcessSemaphoreV2(ctx.client, SoakPaths.semaphore, leases);
  const marks = `${SoakPaths.semaphoreMarks}/${ctx.proc}`;
  for (let n = 0; !ctx.stopping(); n += 1) {
    let lease: Awaited<ReturnType<typeof semaphore.acquire>> = null;
    try {
      lease = await semaphore.acquire({ timeoutMs: 5_000 });
    } catch (error) {
      ctx.log.write({ kind: 'op', op: 'semaphore-acquire', ok: false, error: errorName(error) });
      await sleep(300);
      continue;
    }
    if (!lease) {
      ctx.log.write({ kind: 'op', op: 'semaphore-acquire', ok: false, error: 'timeout' });
      continue;
    }
    const hold = `${ctx.proc}-s${n}`;
    const token = lease.fencingToken ?? -1;
    const lost = lease.lostSignal;
    const czxid = await czxidOf(ctx.client, lease.nodePath);
    ctx.log.write({
      kind: 'acquire',
      resource: 'semaphore',
      hold,
      token,
      node: lease.nodePath,
      czxid,
      session: String(ctx.client.sessionId),
    });
    for (let i = 0; i < 3; i += 1) {
      const zxid = await markWrite(ctx.client, marks, hold, () => !lost.aborted);
      if (zxid === undefined) break;
      ctx.log.write({
        kind: 'hold-write',
        resource: 'semaphore',
        hold,
        token,
        zxid: String(zxid),
        fenced: false,
      });
      await sleep(20 + ctx.random() * 150);
    }
    let reason = lost.aborted ? 'lost' : 'released';
    try {
      await lease.close();
    } catch (error) {
      reason = `close failed: ${errorName(error)}`;
    }
    ctx.log.write({ kind: 'release', resource: 'semaphore', hold, reason });
    await sleep(ctx.random() * 200);
  }
}

/** Stands in a LeaderLatch; a leader heartbeats through the guard, and after a while steps down to rotate terms. */
export async function leaderLoop(ctx: LoadContext): Promise<void> {
  while (!ctx.stopping()) {
    const latch = new LeaderLatch(ctx.client, SoakPaths.leader, { id: ctx.proc });
    latch.on('error', () => {}); // background failures show up as lost leadership below
    try {
      await latch.start();
      const termLimit = 4 + Math.floor(ctx.random() * 12);
      let beats = 0;
      let term: number | undefined;
      while (!ctx.stopping() && beats < termLimit) {
        if (!latch.hasLeadership) {
          if (term !== undefined) {
            ctx.log.write({
              kind: 'release',
              resource: 'leader',
              hold: `${ctx.proc}-L${term}`,
              reason: 'lost',
            });
            term = undefined;
          }
          await sleep(200);
          continue;
        }
        const current = latch.fencingToken ?? -1;
        if (term !== current) {
          term = current;
          const node = latch.ourPath ?? '';
          const czxid = await czxidOf(ctx.client, node);
          ctx.log.write({
            kind: 'acquire',
            resource: 'leader',
            hold: `${ctx.proc}-L${term}`,
            token: term,
            node,
            czxid,
            session: String(ctx.client.sessionId),
          });
        }
        const signal = latch.leadershipSignal;
        const myTerm = term;
        await guardedWrites(ctx, 'leader', `${ctx.proc}-L${myTerm}`, myTerm, 1, () =>
          Boolean(latch.hasLeadership && latch.fencingToken === myTerm && !signal?.aborted),
        );
        beats += 1;
        await sleep(250);
      }
      if (term !== undefined) {
        ctx.log.write({
          kind: 'release',
          resource: 'leader',
          hold: `${ctx.proc}-L${term}`,
          reason: 'stepped down',
        });
      }
    } catch (error) {
      ctx.log.write({ kind: 'op', op: 'leader-latch', ok: false, error: errorName(error) });
      await sleep(300);
    } finally {
      await latch.close().catch(() => {});
    }
  }
}
