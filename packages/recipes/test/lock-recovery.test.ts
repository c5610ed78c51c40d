/**
 * Protected-create recovery after a real connection loss (curator/conventions.md §1.5): the server makes our
 * lock node, the reply never reaches us, the connection is cut; after reconnecting, the lock finds its own
 * `_c_<uuid>-` node and adopts it instead of making a second one.
 */

import type { FaultProxy } from '@zkwire/testing';
import { eventually } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { childrenOf, type TestClient, useRealServer } from './helpers.js';

describe('protected create after a connection loss', () => {
  // observer: straight to the server; client: through the fault proxy, which the tests break.
  const env = useRealServer({ clients: 1, proxiedClients: 1 });
  let proxy: FaultProxy;
  let observer: TestClient;
  let client: TestClient;

  beforeAll(async () => {
    proxy = env.proxy;
    observer = env.client(0);
    client = env.proxiedClient(0);
  });

  it('adopts the node whose create reply was lost, making no second node', async () => {
    const path = '/recovery/mutex';
    await observer.create('/recovery', null, { mode: 'persistent' });
    await observer.create(path, null, { mode: 'persistent' });
    const sessionBefore = client.sessionId;

    // Swallow the next reply to the client: the create's.
    proxy.corrupt('toClient', () => Buffer.alloc(0), true);
    const mutex = new InterProcessMutex(client, path);
    const acquiring = mutex.acquire({ timeoutMs: 60_000 });
    await eventually(async () => (await childrenOf(observer, path)).length === 1);
    proxy.cut(); // the create is pending on the client: it fails with a connection loss

    expect(await acquiring).toBe(true);
    expect(client.sessionId).toBe(sessionBefore); // same session, so the node is ours to adopt
    const children = await childrenOf(observer, path);
    expect(children).toHaveLength(1);
    expect(mutex.lockNodePath).toBe(`${path}/${children[0]}`);
    await mutex.release();
    expect(await childrenOf(observer, path)).toEqual([]);
  });

  it('creates again when the lost create never reached the server, leaving one node', async () => {
    const path = '/recovery/unsent';
    await observer.create(path, null, { mode: 'persistent' });
    const sessionBefore = client.sessionId;

    // Swallow the create request itself on its way to the server (pings and other frames pass).
    let swallowed: Buffer | undefined;
    proxy.corrupt('toServer', (chunk) => {
      if (swallowed !== undefined || !chunk.includes('-lock-')) return chunk;
      swallowed = chunk;
      return Buffer.alloc(0);
    });
    const mutex = new InterProcessMutex(client, path);
    const acquiring = mutex.acquire({ timeoutMs: 60_000 });
    await eventually(() => swallowed !== undefined);
    proxy.clearCorruption();
    // The server never saw it, so no node exists; the cut makes the pending create fail with a connection loss.
    expect(await childrenOf(observer, path)).toEqual([]);
    proxy.cut();

    expect(await acquiring).toBe(true);
    expect(client.sessionId).toBe(sessionBefore);
    const children = await childrenOf(observer, path);
    expect(children).toHaveLength(1);
    expect(mutex.lockNodePath).toBe(`${path}/${children[0]}`);
    await mutex.release();
    expect(await childrenOf(observer, path)).toEqual([]);
  });
});
