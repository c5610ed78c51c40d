/**
 * Fenced writes on a real server: a holder's writes go out as one multi behind a check of its own node, so a
 * holder that lost its node cannot write, whatever it believes, while the new holder's writes succeed. The
 * fault proxy stalls the stale holder: its replies and events held back while its write reaches the server,
 * or everything held until its session expired.
 */
import { eventually, startFaultProxy } from '@zkwire/testing';
import { op } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { FencedWriter } from '../src/internal-common/fenced-writer.js';
import { HoldLostError, type LostEvent } from '../src/internal-common/hold-monitor.js';
import {
  IllegalRecipeStateError,
  InvalidRecipeArgumentError,
  NotLockOwnerError,
} from '../src/internal-common/recipe-errors.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { LeaderSelector } from '../src/leader/leader-selector.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { InterProcessReadWriteLock } from '../src/locks/interprocess-read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../src/locks/interprocess-semaphore-v2.js';
import { closeAll, deferred, openClient, type TestClient, useRealServer } from './helpers.js';

const text = new TextDecoder();

describe('fenced writes', () => {
  // tickTime 500 lets the server grant a 2 s session, so the stalled holder's session expires soon.
  const zk = useRealServer({ clients: 3, server: { tickTime: 500 } });
  const extra: TestClient[] = [];
  afterAll(() => closeAll(extra));

  async function proxiedClient(sessionTimeoutMs = 30_000) {
    const proxy = await startFaultProxy({ host: zk.server.host, port: zk.server.port });
    const client = await openClient(proxy.connectString, sessionTimeoutMs);
    extra.push(client);
    return { proxy, client };
  }

  async function resource(path: string): Promise<string> {
    await zk
      .client(0)
      .create(path, 'initial', { createParents: true })
      .catch(() => {});
    await zk.client(0).setData(path, 'initial');
    return path;
  }

  const dataOf = async (path: string) => text.decode((await zk.client(0).getData(path)).data);

  it('refuses, at the server, the write of a holder whose node was deleted before its write arrived', async () => {
    const target = await resource('/fenced/deleted/resource');
    const { proxy, client } = await proxiedClient();
    const holder = new InterProcessMutex(client, '/fenced/deleted/lock');
    expect(await holder.acquire()).toBe(true);
    const writer = holder.fenced();
    expect((await writer.setData(target, 'holder')).version).toBeGreaterThan(0);
    expect(await dataOf(target)).toBe('holder');

    // The holder hears nothing from now on: not the deletion of its node, not its write's reply.
    proxy.pause('toClient');
    await zk.client(1).delete(holder.lockNodePath as string);
    const next = new InterProcessMutex(zk.client(1), '/fenced/deleted/lock');
    expect(await next.acquire({ timeoutMs: 30_000 })).toBe(true);
    await next.fenced().setData(target, 'next holder');
    const late = writer.setData(target, 'stale holder'); // still believes it holds: this goes to the server
    const lateCreate = writer.create('/fenced/deleted/made-by-stale');
    proxy.resume();

    const refusal = await late.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HoldLostError);
    expect(refusal).toMatchObject({ code: 'HOLD_LOST', path: holder.lockNodePath });
    // The server's answer: the transaction failed at its first op, the check of the holder's node.
    expect((refusal as HoldLostError).cause).toMatchObject({ failedIndex: 0, code: 'NONODE' });
    await expect(lateCreate).rejects.toBeInstanceOf(HoldLostError);
    expect(await dataOf(target)).toBe('next holder');
    expect(await zk.client(0).exists('/fenced/deleted/made-by-stale')).toBeNull();
    await next.release();
    await holder.release();
  });

  it('refuses the write of a holder stalled past its session expiry, while the new holder writes', async () => {
    const target = await resource('/fenced/expired/resource');
    const { proxy, client } = await proxiedClient(2_000);
    // lostOn 'lost': a suspended connection does not stop the writer, so only the server can refuse.
    const holder = new InterProcessMutex(client, '/fenced/expired/lock', { lostOn: 'lost' });
    expect(await holder.acquire()).toBe(true);
    const writer = holder.fenced();
    await writer.setData(target, 'holder');
    const lost = deferred<LostEvent>();
    holder.on('lost', (event) => lost.resolve(event));

    proxy.pause(); // a stall: the holder's bytes, and the server's, held in the proxy
    const late = writer.setData(target, 'stale holder').then(
      () => 'applied',
      (error: unknown) => error,
    );
    const next = new InterProcessMutex(zk.client(1), '/fenced/expired/lock');
    expect(await next.acquire({ timeoutMs: 60_000 })).toBe(true); // the holder's session expired
    await next.fenced().setData(target, 'next holder');
    proxy.resume();

    // The server closed the expired session's connection, so the held write never ran: the client reports the
    // connection lost under it (or, had it learnt of the expiry first, the hold lost), never a success.
    const lateError = await late;
    expect(
      lateError instanceof HoldLostError || (lateError as { code?: string }).code === 'CONNECTIONLOSS',
    ).toBe(true);
    expect((await lost.promise).reason).toBe('lost');
    expect(await dataOf(target)).toBe('next holder');
    // Once the lock knows, the writer refuses before sending, with the reason of the lost signal.
    const refusal = await writer.setData(target, 'again').catch((error: unknown) => error);
    expect(refusal).toBe(holder.lostSignal?.reason);
    expect(await dataOf(target)).toBe('next holder');
    await next.release();
    await holder.release();
  });

  it('refuses before sending once the hold is reported lost or released, and checks its arguments', async () => {
    const target = await resource('/fenced/local/resource');
    const lock = new InterProcessMutex(zk.client(0), '/fenced/local/lock');
    expect(() => lock.fenced()).toThrow(NotLockOwnerError);
    await lock.acquire();
    const writer = lock.fenced();
    const refused = async (call: Promise<unknown>, argument: string) => {
      const error = await call.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(InvalidRecipeArgumentError);
      expect((error as InvalidRecipeArgumentError).argument).toBe(argument);
    };
    await refused(writer.setData('relative', 'x'), 'path');
    // The client's path rules, not only "absolute": what the client would refuse never reaches a transaction.
    await refused(writer.setData('/fenced//double', 'x'), 'path');
    await refused(writer.delete('/fenced/local/..'), 'path');
    await refused(writer.create('/fenced/local/', 'x'), 'path');
    await refused(writer.setData(target, 'x', { version: -2 }), 'version');
    await refused(writer.multi([]), 'ops');
    await refused(writer.multi([op.check(target, -1), { type: 'sync' } as never]), 'ops[1]');

    // An op of the caller's own failing is the op's error, not a lost hold.
    await expect(writer.create(target, 'dup')).rejects.toMatchObject({ code: 'NODEEXISTS' });
    const multiFailure = await writer
      .multi([op.setData(target, 'a'), op.check(target, 999)])
      .catch((error: unknown) => error);
    expect(multiFailure).toMatchObject({ code: 'BADVERSION', failedIndex: 1 });
    const results = await writer.multi([op.setData(target, 'multi'), op.create('/fenced/local/child', 'c')]);
    expect(results.map((result) => result.type)).toEqual(['setData', 'create']);
    await writer.delete('/fenced/local/child');
    // A sequential create may end its path with "/" (the server names the node), as the client allows.
    const numbered = await writer.create('/fenced/local/', 'n', { mode: 'persistent-sequential' });
    expect(numbered).toMatch(/^\/fenced\/local\/\d{10}$/);
    await writer.delete(numbered);

    await lock.release();
    await expect(writer.setData(target, 'after release')).rejects.toBeInstanceOf(IllegalRecipeStateError);

    // Someone deletes the node: the lock hears it, and the writer refuses with that very error.
    await lock.acquire();
    const second = lock.fenced();
    await zk.client(1).delete(lock.lockNodePath as string);
    await eventually(() => lock.lostSignal?.aborted === true);
    const refusal = await second.setData(target, 'x').catch((error: unknown) => error);
    expect(refusal).toBe(lock.lostSignal?.reason);
    expect(await dataOf(target)).toBe('multi');
    await lock.release();
  });

  it('fences both sides of the read-write lock and a semaphore lease', async () => {
    const target = await resource('/fenced/rw/resource');
    const rw = new InterProcessReadWriteLock(zk.client(0), '/fenced/rw/lock');
    await rw.writeLock().acquire();
    await rw.writeLock().fenced().setData(target, 'writer');
    await rw.readLock().acquire(); // downgrade: the write lock's holder may take the read lock
    await rw.writeLock().release();
    await rw.readLock().fenced().setData(target, 'reader');
    const readerNode = rw.readLock().lockNodePath as string;
    const readWriter = rw.readLock().fenced();
    await zk.client(1).delete(readerNode);
    await expect(readWriter.setData(target, 'stale reader')).rejects.toBeInstanceOf(HoldLostError);
    await rw.readLock().release();

    const semaphore = new InterProcessSemaphoreV2(zk.client(0), '/fenced/semaphore', 2);
    const lease = await semaphore.acquire();
    if (lease === null) throw new Error('no lease');
    const leaseWriter = lease.fenced();
    await leaseWriter.setData(target, 'lease');
    await zk.client(1).delete(lease.nodePath);
    await expect(leaseWriter.setData(target, 'stale lease')).rejects.toBeInstanceOf(HoldLostError);
    expect(await dataOf(target)).toBe('lease');
    await lease.close();
    await expect(leaseWriter.setData(target, 'closed lease')).rejects.toBeInstanceOf(Error);
  });

  it('lets only the current leader write: a LeaderLatch whose node went cannot, the new leader can', async () => {
    const target = await resource('/fenced/latch/resource');
    const { proxy, client } = await proxiedClient();
    const first = new LeaderLatch(client, '/fenced/latch/election', { id: 'first' });
    const second = new LeaderLatch(zk.client(1), '/fenced/latch/election', { id: 'second' });
    await first.start();
    await second.start();
    expect(first.hasLeadership).toBe(true);
    expect(() => second.fenced()).toThrow(IllegalRecipeStateError);
    const firstWriter = first.fenced();
    await firstWriter.setData(target, 'first leader');

    // The first leader hears nothing while its node is deleted and the second takes over.
    proxy.pause('toClient');
    await zk.client(2).delete(first.ourPath as string);
    await eventually(() => second.hasLeadership);
    await second.fenced().setData(target, 'second leader');
    const late = firstWriter.setData(target, 'deposed leader');
    proxy.resume();
    const refusal = await late.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HoldLostError);
    expect((refusal as HoldLostError).cause).toMatchObject({ failedIndex: 0, code: 'NONODE' });
    expect(await dataOf(target)).toBe('second leader');
    await second.close();
    await first.close();
  });

  it('gives LeaderSelector terms a fenced writer that refuses once the term is over', async () => {
    const target = await resource('/fenced/selector/resource');
    const inTerm = deferred<FencedWriter>();
    const endTerm = deferred();
    const selector = new LeaderSelector(zk.client(0), '/fenced/selector/election', async (leadership) => {
      inTerm.resolve(leadership.fenced());
      await endTerm.promise;
    });
    selector.start();
    const writer = await inTerm.promise;
    await writer.setData(target, 'in the term');
    endTerm.resolve();
    await eventually(() => !selector.hasLeadership);
    await expect(writer.setData(target, 'after the term')).rejects.toBeInstanceOf(Error);
    expect(await dataOf(target)).toBe('in the term');
    await selector.close();
  });
});
