/**
 * Interop with real Curator 5.4.0 (Debian's jars, a Java driver compiled at test time): Java and Node
 * contend on the same paths and see one lock.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { InterProcessReadWriteLock } from '../src/locks/interprocess-read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../src/locks/interprocess-semaphore-v2.js';
import { childrenOf, closeAll, openClients, type TestClient } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

describe('interop with Curator 5.4.0', () => {
  let server: ZooKeeperServer;
  let java: JavaDriver;
  let clients: TestClient[] = [];
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    server = await startZooKeeper();
    [java, clients] = await Promise.all([
      startJavaDriver({ connectString: server.connectString, handlers: ['LockHandler.java'] }),
      openClients(server.connectString, 2),
    ]);
    [a, b] = clients as [TestClient, TestClient];
  });

  afterAll(async () => {
    await java?.close();
    await closeAll(clients);
    await server?.stop();
  });

  it('a Java InterProcessMutex and ours alternate on one path with mutual exclusion', async () => {
    const path = '/interop/mutex';
    const counter = '/interop-mutex-counter';
    await a.create(counter, '0', { mode: 'persistent' });
    const ours = new InterProcessMutex(a, path);

    // Each side blocks the other while it holds.
    expect(await java.call('j1', 'mutex.acquire', path, -1)).toBe('true');
    expect(await ours.acquire({ timeoutMs: 300 })).toBe(false);
    expect(await childrenOf(a, path)).toHaveLength(1);
    const oursWaiting = ours.acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, path)).length === 2);
    await java.call('j1', 'mutex.release', path);
    expect(await oursWaiting).toBe(true);
    expect(await java.call('j1', 'mutex.acquire', path, 300)).toBe('false');
    await ours.release();

    // Contention: two Java threads and two Node clients increment a counter under the lock.
    const javaWorker = async (actor: string) => {
      for (let i = 0; i < 5; i++) {
        expect(await java.call(actor, 'mutex.acquire', path, 60_000)).toBe('true');
        await java.call(actor, 'incr', counter);
        await java.call(actor, 'mutex.release', path);
      }
    };
    const nodeWorker = async (client: TestClient) => {
      const mutex = new InterProcessMutex(client, path);
      for (let i = 0; i < 5; i++) {
        expect(await mutex.acquire({ timeoutMs: 60_000 })).toBe(true);
        const { data } = await client.getData(counter);
        await new Promise((resolve) => setTimeout(resolve, 2));
        await client.setData(counter, String(Number(Buffer.from(data).toString()) + 1));
        await mutex.release();
      }
    };
    await Promise.all([javaWorker('j1'), javaWorker('j2'), nodeWorker(a), nodeWorker(b)]);
    expect(Buffer.from((await a.getData(counter)).data).toString()).toBe('20');
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('a Java read lock blocks our writer, and our read lock blocks a Java writer', async () => {
    const path = '/interop/rw';
    const ours = new InterProcessReadWriteLock(a, path);

    expect(await java.call('j1', 'read.acquire', path, -1)).toBe('true');
    expect(await ours.writeLock().acquire({ timeoutMs: 300 })).toBe(false);
    expect(await ours.readLock().acquire({ timeoutMs: 5_000 })).toBe(true); // readers share across languages
    await ours.readLock().release();
    const writing = ours.writeLock().acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, path)).length === 2);
    await java.call('j1', 'read.release', path);
    expect(await writing).toBe(true);
    expect(await java.call('j1', 'read.acquire', path, 300)).toBe('false'); // our writer blocks a Java reader
    await ours.writeLock().release();

    expect(await ours.readLock().acquire()).toBe(true);
    expect(await java.call('j2', 'write.acquire', path, 300)).toBe('false');
    const javaWriting = java.call('j2', 'write.acquire', path, 30_000);
    await eventually(async () => (await childrenOf(a, path)).length === 2);
    await ours.readLock().release();
    expect(await javaWriting).toBe('true');
    // a Java writer holds: our reader waits behind it
    expect(await ours.readLock().acquire({ timeoutMs: 300 })).toBe(false);
    await java.call('j2', 'write.release', path);
    expect(await childrenOf(a, path)).toEqual([]);
  });

  it('a Java semaphore and ours share max leases', async () => {
    const path = '/interop/sem';
    const ours = new InterProcessSemaphoreV2(a, path, 2);
    const javaLease = await java.call('j1', 'sem.acquire', path, 2, -1);
    expect(javaLease).toMatch(/lease-\d{10}$/);
    const lease = await ours.acquire({ timeoutMs: 10_000 });
    expect(lease).not.toBeNull();
    // Full: a third lease, Java's or ours, waits.
    expect(await java.call('j2', 'sem.acquire', path, 2, 300)).toBe('null');
    expect(await new InterProcessSemaphoreV2(b, path, 2).acquire({ timeoutMs: 300 })).toBeNull();
    expect(await childrenOf(a, `${path}/leases`)).toHaveLength(2);

    const javaWaiting = java.call('j2', 'sem.acquire', path, 2, 30_000);
    await eventually(async () => (await childrenOf(a, `${path}/leases`)).length === 3);
    await lease?.close();
    expect(await javaWaiting).toMatch(/lease-\d{10}$/);

    const oursWaiting = ours.acquire({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(a, `${path}/leases`)).length === 3);
    await java.call('j1', 'sem.release', path);
    const second = await oursWaiting;
    expect(second).not.toBeNull();
    await second?.close();
    await java.call('j2', 'sem.release', path);
    expect(await childrenOf(a, `${path}/leases`)).toEqual([]);
  });
});
