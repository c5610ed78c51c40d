/**
 * The recovery logic of the protected create, driven by a scripted in-memory client. This checks our
 * decisions (adopt, re-create, clean up) for outcomes a real server cannot be made to produce on demand; the
 * integration suite covers the same path against a real server.
 */
import { describe, expect, it } from 'vitest';
import { createProtected } from './protected-create.js';
import type { RecipeClient } from './zk-client.js';

class ConnectionLoss extends Error {
  readonly code = 'CONNECTIONLOSS';
}

function scriptedClient(options: { loseReplyOfCreates: number; loseBeforeSending?: boolean }) {
  const nodes = new Set<string>();
  let sequence = 0;
  let creates = 0;
  const deletes: string[] = [];
  const client = {
    sessionId: 1n,
    state: 'connected',
    connected: async () => {},
    async create(path: string) {
      creates += 1;
      const lose = creates <= options.loseReplyOfCreates;
      if (lose && options.loseBeforeSending) throw new ConnectionLoss();
      const actual = `${path}${String(sequence++).padStart(10, '0')}`;
      nodes.add(actual);
      if (lose) throw new ConnectionLoss(); // the server made the node, the reply was lost
      return actual;
    },
    async delete(path: string) {
      deletes.push(path);
      nodes.delete(path);
    },
    async getChildren(parent: string) {
      return [...nodes].filter((n) => n.startsWith(`${parent}/`)).map((n) => n.slice(parent.length + 1));
    },
    exists: async () => null,
    getData: async () => ({ data: new Uint8Array(), stat: { version: 0, ephemeralOwner: 0n } }),
    on: () => client,
  };
  return {
    client: client as unknown as RecipeClient & { sessionId: bigint },
    nodes,
    deletes,
    creates: () => creates,
  };
}

const request = {
  parentPath: '/lock',
  name: 'lock-',
  data: new Uint8Array(),
  mode: 'ephemeral-sequential',
} as const;

describe('createProtected recovery', () => {
  it('adopts the node whose create reply was lost instead of making a second one', async () => {
    const { client, nodes, creates } = scriptedClient({ loseReplyOfCreates: 1 });
    const node = await createProtected(client, request);
    expect(nodes.size).toBe(1);
    expect([...nodes][0]).toBe(node.path);
    expect(node.path.startsWith(`/lock/${node.prefix}lock-`)).toBe(true);
    expect(creates()).toBe(1);
  });

  it('creates again when the lost create never reached the server', async () => {
    const { client, nodes, creates } = scriptedClient({ loseReplyOfCreates: 1, loseBeforeSending: true });
    const node = await createProtected(client, request);
    expect([...nodes]).toEqual([node.path]);
    expect(creates()).toBe(2);
  });

  it('does not adopt a node left by an earlier session; it deletes it and creates anew', async () => {
    const { client, nodes, deletes } = scriptedClient({ loseReplyOfCreates: 1 });
    const create = client.create.bind(client);
    let first = true;
    (client as { create: typeof create }).create = async (...args: Parameters<typeof create>) => {
      try {
        return await create(...args);
      } finally {
        if (first) (client as { sessionId: bigint }).sessionId = 2n; // the session changed meanwhile
        first = false;
      }
    };
    const node = await createProtected(client, request);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).not.toBe(node.path);
    expect([...nodes]).toEqual([node.path]);
  });

  it('gives up after its attempts, re-throws, and deletes whatever it made in the background', async () => {
    const { client, nodes } = scriptedClient({ loseReplyOfCreates: 99, loseBeforeSending: false });
    // every create lands but every reply is lost, and every listing fails too
    let listings = 0;
    const getChildren = client.getChildren.bind(client);
    (client as { getChildren: typeof getChildren }).getChildren = async (path: string) => {
      listings += 1;
      if (listings <= 3) throw new ConnectionLoss();
      return getChildren(path);
    };
    await expect(createProtected(client, { ...request, maxAttempts: 2 })).rejects.toMatchObject({
      code: 'CONNECTIONLOSS',
    });
    for (let i = 0; i < 50 && nodes.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(nodes.size).toBe(0);
  });
});
