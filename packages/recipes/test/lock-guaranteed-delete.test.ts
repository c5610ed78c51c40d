/**
 * Guaranteed delete after a real connection loss (curator/conventions.md §1.4): a lock node whose delete
 * cannot reach the server (a released hold, or a waiter that gave up while disconnected) is deleted in the
 * background once the connection is back, in the same session, so nobody waits for the session to expire.
 */

import type { FaultProxy } from '@zkwire/testing';
import { eventually } from '@zkwire/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { childrenOf, settledFlag, type TestClient, trackReads, useRealServer } from './helpers.js';

describe('guaranteed delete of lock nodes after a connection loss', () => {
  // observer: straight to the server; client: through the fault proxy, which the tests break.
  const env = useRealServer({ clients: 1, proxiedClients: 1 });
  let proxy: FaultProxy;
  let observer: TestClient;
  let client: TestClient;

  beforeAll(async () => {
    proxy = env.proxy;
    observer = env.client(0);
    client = env.proxiedClient(0);
    await observer.create('/guaranteed', null, { mode: 'persistent' });
  });

  afterEach(() => {
    // A failed test must not leave the next one without a connection.
    proxy.clearCorruption();
    proxy.refuse(false);
  });

  it('a release whose delete is lost keeps deleting in the background until the connection is back', async () => {
    const path = '/guaranteed/release';
    const mutex = new InterProcessMutex(client, path);
    expect(await mutex.acquire()).toBe(true);
    const ourNode = mutex.lockNodePath as string;
    const ourName = ourNode.slice(path.length + 1);
    const sessionBefore = client.sessionId;

    // Swallow the delete on its way to the server, keep the client from reconnecting, then cut: the delete
    // in flight fails with a connection loss and the server still has the node.
    let swallowed = false;
    proxy.corrupt('toServer', (chunk) => {
      if (swallowed || !chunk.includes(ourName)) return chunk;
      swallowed = true;
      return Buffer.alloc(0);
    });
    const releasing = mutex.release();
    await eventually(() => swallowed);
    proxy.clearCorruption();
    proxy.refuse(true);
    proxy.cut();

    await releasing; // handed to the background: release does not wait for the connection
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    expect(client.state).not.toBe('connected');
    expect(await childrenOf(observer, path)).toEqual([ourName]); // the lost delete never reached the server

    proxy.refuse(false);
    await eventually(async () => (await childrenOf(observer, path)).length === 0);
    expect(client.sessionId).toBe(sessionBefore); // deleted by the retry, not by a session expiry
    expect(client.state).toBe('connected');
  });

  it('a waiter that times out while disconnected has its node deleted once the connection is back', async () => {
    const path = '/guaranteed/timeout';
    const holder = new InterProcessMutex(observer, path);
    expect(await holder.acquire()).toBe(true);
    const holderName = (holder.lockNodePath as string).slice(path.length + 1);
    const sessionBefore = client.sessionId;

    const tracked = trackReads(client);
    const waiter = new InterProcessMutex(tracked.client, path);
    const acquiring = waiter.acquire({ timeoutMs: 4_000 });
    const done = settledFlag(acquiring);
    // Cut only once the waiter watches the holder's node: a read in flight at the cut would fail the acquire
    // with a connection loss instead of letting it time out.
    const holderNode = holder.lockNodePath as string;
    await eventually(() => tracked.settled.some((read) => read.path === holderNode && read.watched));
    const waiterName = (await childrenOf(observer, path)).find((name) => name !== holderName) as string;

    proxy.refuse(true);
    proxy.cut();
    // The cut came before the deadline, so the waiter gives up while it has no connection.
    expect(done.settled).toBe(false);
    expect(await acquiring).toBe(false);
    expect(client.state).not.toBe('connected');
    expect((await childrenOf(observer, path)).sort()).toEqual([holderName, waiterName].sort());

    proxy.refuse(false);
    await eventually(async () => (await childrenOf(observer, path)).length === 1);
    expect(await childrenOf(observer, path)).toEqual([holderName]);
    expect(client.sessionId).toBe(sessionBefore);
    await holder.release();
    expect(await childrenOf(observer, path)).toEqual([]);
  });
});
