/**
 * Fenced writes next to a Curator holder of the same InterProcessMutex (java/LockHandler.java; Curator 5.9.0
 * by default, also run on Debian's 5.4.0): round after round, our holder writes under the lock, loses its node
 * while it hears nothing (the fault proxy holds what the server sends it), Curator takes the lock and writes,
 * and our stale holder's late write is refused by the server. The shared counter ends with exactly the writes
 * of holders that held the lock.
 */
import { startFaultProxy } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoldLostError } from '../src/internal-common/hold-monitor.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { closeAll, openClient, type TestClient, useRealServer } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

const ROUNDS = 4;

describe('fenced writes with a Curator holder of the same lock', () => {
  const zk = useRealServer({ clients: 1 });
  let java: JavaDriver;
  const extra: TestClient[] = [];
  beforeAll(async () => {
    java = await startJavaDriver({ connectString: zk.server.connectString, handlers: ['LockHandler.java'] });
  });
  afterAll(async () => {
    await java?.close();
    await closeAll(extra);
  });

  it('never applies a write of ours after Curator took the lock from us', async () => {
    const path = '/fenced-curator/lock';
    const counter = '/fenced-curator/counter';
    await zk.client(0).create(counter, '0', { createParents: true });
    const proxy = await startFaultProxy({ host: zk.server.host, port: zk.server.port });
    const client = await openClient(proxy.connectString);
    extra.push(client);
    const read = async () => Number(new TextDecoder().decode((await zk.client(0).getData(counter)).data));

    for (let round = 0; round < ROUNDS; round++) {
      // Curator holds first, ours waits; then ours holds and writes fenced.
      expect(await java.call('curator', 'mutex.acquire', path, -1)).toBe('true');
      const ours = new InterProcessMutex(client, path);
      const waiting = ours.acquire({ timeoutMs: 30_000 });
      await java.call('curator', 'incr', counter);
      await java.call('curator', 'mutex.release', path);
      expect(await waiting).toBe(true);
      const writer = ours.fenced();
      await writer.setData(counter, String((await read()) + 1));

      // Ours loses its node without hearing it; Curator takes the lock and writes; ours writes late.
      proxy.pause('toClient');
      await zk.client(0).delete(ours.lockNodePath as string);
      expect(await java.call('curator', 'mutex.acquire', path, 30_000)).toBe('true');
      await java.call('curator', 'incr', counter);
      const late = writer.setData(counter, '-1');
      proxy.resume();
      await expect(late).rejects.toBeInstanceOf(HoldLostError);
      await java.call('curator', 'incr', counter); // Curator still holds: its writes go on
      await java.call('curator', 'mutex.release', path);
      await ours.release();
      expect(await read()).toBe((round + 1) * 4);
    }
    await proxy.close();
  });
});
