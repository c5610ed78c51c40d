/**
 * CuratorCache across connection trouble, on a real server behind a fault proxy, for both engines: a
 * reconnect (the connection cut while another client changes the tree: watches restored, what changed
 * meanwhile fetched) and a session expiry (the cache rebuilt on a new session, with events only for what
 * really differs: no burst of deletes and creates of unchanged nodes).
 */
import { eventually } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { CacheEngine } from '../src/cache/cache-options.js';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { expectCacheEqualsServer, recordEvents } from './cache-helpers.js';
import { closeAll, type TestClient, useRealServer } from './helpers.js';

const real = useRealServer({ clients: 1, faultProxy: true });
const opened: TestClient[] = [];
afterAll(() => closeAll(opened));

/** A client through the fault proxy that starts a new session when its session expires. */
async function proxiedClient(): Promise<{ client: TestClient; states: string[] }> {
  const client = await connect({
    connectString: real.proxy.connectString,
    sessionTimeoutMs: 30_000,
    autoRecreateSession: true,
  });
  opened.push(client);
  const states: string[] = [];
  client.on('state', (state) => states.push(state));
  return { client, states };
}

/** A tree of `n` leaves under root/group, plus root/keep with data. */
async function seed(writer: TestClient, root: string, n: number): Promise<void> {
  await writer.create(`${root}/group`, 'g', { createParents: true });
  await writer.create(`${root}/keep`, 'k');
  await Promise.all(Array.from({ length: n }, (_, i) => writer.create(`${root}/group/n${i}`, `v${i}`)));
}

describe.each(['persistent-watch', 'one-shot-watches'] as CacheEngine[])('CuratorCache (%s)', (engine) => {
  it('after a reconnect, has fetched what changed while the connection was down, and only that', async () => {
    const writer = real.client(0);
    const root = `/cache-reconnect/${engine}`;
    await seed(writer, root, 20);
    const { client, states } = await proxiedClient();
    await using cache = new CuratorCache(client, root, { engine });
    await cache.start();
    await cache.awaitInitialized({ timeoutMs: 10_000 });
    const sessionId = client.sessionId;
    const lines = recordEvents(cache);

    real.proxy.refuse(true);
    real.proxy.cut();
    await eventually(() => states.includes('suspended'));
    await writer.setData(`${root}/group/n1`, 'changed');
    await writer.delete(`${root}/group/n2`);
    await writer.create(`${root}/group/new`, 'fresh');
    await writer.create(`${root}/group/new/deeper`, 'd');
    await writer.delete(`${root}/keep`);
    await writer.create(`${root}/keep`, 'k'); // same path, same version 0: a new node all the same
    real.proxy.refuse(false);

    await eventually(() => states.at(-1) === 'reconnected', { timeoutMs: 30_000 });
    expect(client.sessionId).toBe(sessionId);
    await expectCacheEqualsServer(cache, writer);
    expect([...lines].sort()).toEqual(
      [
        `changed ${root}/group/n1`,
        `deleted ${root}/group/n2`,
        `created ${root}/group/new`,
        `created ${root}/group/new/deeper`,
        `changed ${root}/keep`,
      ].sort(),
    );
    // The watch works again: a later change arrives.
    await writer.setData(`${root}/group/n3`, 'after');
    await eventually(() => lines.includes(`changed ${root}/group/n3`));
  });

  it('after a session expiry, is rebuilt on the new session with events only for real differences', async () => {
    const writer = real.client(0);
    const root = `/cache-expiry/${engine}`;
    await seed(writer, root, 20);
    const { client, states } = await proxiedClient();
    await client.create(`${root}/group/mine`, 'ephemeral', { mode: 'ephemeral' });
    await using cache = new CuratorCache(client, root, { engine });
    await cache.start();
    await cache.awaitInitialized({ timeoutMs: 10_000 });
    const oldSession = client.sessionId;
    const lines = recordEvents(cache);

    // Cut our client off, end its session from outside, change the tree, then let it back in.
    real.proxy.refuse(true);
    real.proxy.cut();
    await eventually(() => states.includes('suspended'));
    const thief = await connect({
      connectString: real.server.connectString,
      session: { id: oldSession, password: client.sessionPassword },
    });
    await thief.close(); // the server expires the session: our ephemeral goes
    await writer.setData(`${root}/group/n5`, 'changed');
    await writer.create(`${root}/group/arrived`, 'a');
    real.proxy.refuse(false);

    await eventually(() => states.includes('lost') && client.state === 'connected', { timeoutMs: 30_000 });
    expect(client.sessionId).not.toBe(oldSession);
    await expectCacheEqualsServer(cache, writer);
    expect([...lines].sort()).toEqual(
      [`deleted ${root}/group/mine`, `changed ${root}/group/n5`, `created ${root}/group/arrived`].sort(),
    );
    // Watches were placed again on the new session.
    await writer.delete(`${root}/group/n7`);
    await writer.create(`${root}/group/n7`, 'back');
    await expectCacheEqualsServer(cache, writer);
  });
});
