/**
 * GroupMember on a real server: members see each other with their payloads; a member's node deleted by
 * someone else, or lost with an expired session, comes back; close removes the node and leaves no watch and
 * no listener. (Interop with Curator's GroupMember: cache-curator-interop.test.ts.)
 */
import { eventually } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import { RecipeError } from '../src/internal-common/recipe-errors.js';
import { GroupMember } from '../src/nodes/group-member.js';
import { serverWatchedPaths } from './cache-helpers.js';
import { closeAll, type TestClient, useRealServer } from './helpers.js';

const real = useRealServer({ clients: 2 });
const opened: TestClient[] = [];
afterAll(() => closeAll(opened));

const text = (data: Uint8Array | undefined) => (data ? Buffer.from(data).toString('utf8') : data);
const view = (member: GroupMember) =>
  Object.fromEntries([...member.currentMembers()].map(([id, payload]) => [id, text(payload)]));

describe('GroupMember', () => {
  it('members see each other and each other’s payload changes; close leaves the group', async () => {
    const group = '/groups/basic';
    const a = new GroupMember(real.client(0), group, 'a', { payload: 'pa' });
    const b = new GroupMember(real.client(1), group, 'b', { payload: 'pb' });
    await a.start();
    await b.start();
    expect(await a.awaitJoined({ timeoutMs: 10_000 })).toBe(true);
    await eventually(() => JSON.stringify(view(a)) === JSON.stringify({ a: 'pa', b: 'pb' }));
    await eventually(() => view(b).a === 'pa');
    const bytes = await real.client(1).getData(`${group}/a`);
    expect(text(bytes.data)).toBe('pa');
    expect(bytes.stat.ephemeralOwner).toBe(real.client(0).sessionId);

    await a.setThisData('pa2');
    await eventually(() => view(b).a === 'pa2');
    const listeners = real.client(0).listenerCount('state');
    await a.close();
    await eventually(() => view(b).a === undefined);
    expect(await real.client(1).exists(`${group}/a`)).toBeNull();
    expect(real.client(0).listenerCount('state')).toBe(listeners - 2); // the node's and the cache's
    // No watch of a's session is left on the server (b's, on the other client, are).
    expect(await serverWatchedPaths(real.server, real.client(0).sessionId)).toEqual([]);
    expect(await serverWatchedPaths(real.server, real.client(1).sessionId)).toContain(group);
    await b.close();
  });

  it('re-creates its node when someone else deletes it', async () => {
    const group = '/groups/deleted';
    await using member = new GroupMember(real.client(0), group, 'm', { payload: 'mine' });
    await member.start();
    await member.awaitJoined({ timeoutMs: 10_000 });
    const first = await real.client(1).exists(`${group}/m`);
    await real.client(1).delete(`${group}/m`);
    await eventually(async () => {
      const again = await real.client(1).exists(`${group}/m`);
      return again !== null && again.czxid !== first?.czxid;
    });
    expect(text((await real.client(1).getData(`${group}/m`)).data)).toBe('mine');
  });

  it('re-creates its node on the new session after its session expired', async () => {
    const group = '/groups/expired';
    const client = await connect({ connectString: real.server.connectString, autoRecreateSession: true });
    opened.push(client);
    const states: string[] = [];
    client.on('state', (state) => states.push(state));
    await using member = new GroupMember(client, group, 'e', { payload: 'survivor' });
    await member.start();
    await member.awaitJoined({ timeoutMs: 10_000 });
    const oldSession = client.sessionId;
    // Take the session over from another connection and close it: the server expires it, with our node.
    const thief = await connect({
      connectString: real.server.connectString,
      session: { id: oldSession, password: client.sessionPassword },
    });
    await thief.close();
    await eventually(() => states.includes('lost') && client.state === 'connected', { timeoutMs: 30_000 });
    await eventually(async () => {
      const stat = await real.client(1).exists(`${group}/e`);
      return stat !== null && stat.ephemeralOwner === client.sessionId;
    });
    expect(client.sessionId).not.toBe(oldSession);
    await eventually(() => view(member).e === 'survivor');
  });

  it('adopts a node already at its path (as Curator does) and writes its payload there', async () => {
    const group = '/groups/adopt';
    await real.client(1).create(`${group}/x`, 'stale', { mode: 'ephemeral', createParents: true });
    await using member = new GroupMember(real.client(0), group, 'x', { payload: 'fresh' });
    await member.start();
    expect(await member.awaitJoined({ timeoutMs: 10_000 })).toBe(true);
    expect(text((await real.client(1).getData(`${group}/x`)).data)).toBe('fresh');
    await eventually(() => view(member).x === 'fresh');
  });

  it('refuses bad ids, paths, payloads and options before sending anything', () => {
    const client = real.client(0);
    for (const [make, argument] of [
      [() => new GroupMember(client, '/g', 'a/b'), 'thisId'],
      [() => new GroupMember(client, '/g', ''), 'thisId'],
      [() => new GroupMember(client, 'g', 'a'), 'membershipPath'],
      [() => new GroupMember(client, '/g', 'a', { payload: 42 as never }), 'payload'],
      [() => new GroupMember(client, '/g', 'a', { ttl: 1 } as never), 'options.ttl'],
      [() => new GroupMember(client, '/g', 'a', { compression: 'zstd' as never }), 'compression'],
      [() => new GroupMember(client, '/g', 'a', null as never), 'options'],
    ] as const) {
      let caught: unknown;
      try {
        make();
      } catch (error) {
        caught = error;
      }
      expect(RecipeError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
      expect(caught).toMatchObject({ argument });
    }
  });
});
