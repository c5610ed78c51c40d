/**
 * PersistentNode through a fault proxy: data set while disconnected reaches the node after the reconnection;
 * a node deleted while we were away is re-created; and a protected sequential create whose reply is lost is
 * found again by its `_c_<uuid>-` prefix, so exactly one node exists (curator/conventions.md §1.5).
 */

import type { FaultProxy } from '@zkwire/testing';
import { eventually } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import type { PersistentNodeMode } from '../src/nodes/persistent-node-options.js';
import { childrenOf, deferred, settledFlag, type TestClient, useRealServer } from './helpers.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('PersistentNode across connection faults (real server, fault proxy)', () => {
  // observer: straight to the server; client: through the fault proxy, which the tests break.
  const env = useRealServer({ clients: 1, proxiedClients: 1 });
  let proxy: FaultProxy;
  let observer: TestClient;
  let client: TestClient;

  beforeAll(() => {
    proxy = env.proxy;
    observer = env.client(0);
    client = env.proxiedClient(0);
  });

  /** Cuts the proxied client off (new connections refused) and waits until it knows. */
  async function disconnect(): Promise<void> {
    proxy.refuse(true);
    proxy.cut();
    await eventually(() => client.state !== 'connected');
  }

  async function reconnect(): Promise<void> {
    proxy.refuse(false);
    await client.connected({ timeoutMs: 20_000 });
  }

  it('applies data set while disconnected after the reconnection, the newest value last', async () => {
    await using node = new PersistentNode(client, '/faults/data/node', { mode: 'ephemeral', data: 'before' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const session = client.sessionId;

    await disconnect();
    const first = node.setData('during-1');
    const second = node.setData('during-2');
    const secondDone = settledFlag(second);
    expect(text((await observer.getData('/faults/data/node')).data)).toBe('before');
    expect(secondDone.settled).toBe(false);

    await reconnect();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(client.sessionId).toBe(session);
    expect(text((await observer.getData('/faults/data/node')).data)).toBe('during-2');
    expect((await observer.exists('/faults/data/node'))?.ephemeralOwner).toBe(session);
  });

  it('re-creates a node deleted by someone else while the connection was down', async () => {
    await using node = new PersistentNode(client, '/faults/away/node', { mode: 'persistent', data: 'mine' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const recreated = deferred();
    node.on('recreated', () => recreated.resolve());

    await disconnect();
    await observer.delete('/faults/away/node');
    await reconnect();
    await recreated.promise; // the restored watch reported the deletion
    expect(text((await observer.getData('/faults/away/node')).data)).toBe('mine');
  });

  it('close while disconnected returns at once; the node is deleted once the connection is back', async () => {
    const node = new PersistentNode(client, '/faults/close-away/node', { mode: 'ephemeral', data: 'x' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    await disconnect();
    await node.close(); // does not wait for the connection
    expect(await observer.exists('/faults/close-away/node')).not.toBeNull();
    await reconnect();
    await eventually(async () => (await observer.exists('/faults/close-away/node')) === null);
  });

  for (const mode of ['ephemeral-sequential', 'persistent-sequential'] as PersistentNodeMode[]) {
    it(`finds its ${mode} protected node again when the create reply is lost: one node, never two`, async () => {
      const parent = `/faults/lost-${mode}`;
      await observer.create(parent, null, { mode: 'persistent', createParents: true });
      const session = client.sessionId;

      // Swallow the create's reply on its way to the client: it carries the new node's protected name.
      let swallowed: Buffer | undefined;
      proxy.corrupt('toClient', (chunk) => {
        if (swallowed !== undefined || !chunk.includes('_c_')) return chunk;
        swallowed = chunk;
        return Buffer.alloc(0);
      });
      const node = new PersistentNode(client, `${parent}/member-`, { mode, data: 'd', useProtection: true });
      const created: string[] = [];
      node.on('created', (path) => created.push(path));
      node.start();
      await eventually(() => swallowed !== undefined);
      proxy.clearCorruption();
      expect(await childrenOf(observer, parent)).toHaveLength(1); // the server made it; we never heard
      proxy.cut(); // the create is pending on the client: it fails with a connection loss

      expect(await node.waitForInitialCreate({ timeoutMs: 30_000 })).toBe(true);
      expect(client.sessionId).toBe(session);
      const children = await childrenOf(observer, parent);
      expect(children).toHaveLength(1);
      expect(children[0]).toMatch(/^_c_[0-9a-f-]{36}-member-\d{10}$/);
      expect(node.actualPath).toBe(`${parent}/${children[0]}`);
      expect(created).toEqual([node.actualPath]);

      await node.close();
      expect(await childrenOf(observer, parent)).toEqual([]);
    });
  }
});
