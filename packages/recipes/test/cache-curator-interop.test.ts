/**
 * CuratorCache next to real Curator (5.9.0 by default, a Java driver compiled at test time) on the same
 * tree: after each step of a scripted series of changes both caches hold the server's tree, and in the end
 * they hold the same state and saw the same multiset of events.
 */
import { eventually } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { GroupMember } from '../src/nodes/group-member.js';
import { readServerTree, recordEvents } from './cache-helpers.js';
import { type TestClient, useRealServer } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

const real = useRealServer({ clients: 2 });
let java: JavaDriver;

beforeAll(async () => {
  java = await startJavaDriver({
    connectString: real.server.connectString,
    handlers: ['drivers-caches/CachesHandler.java'],
  });
}, 120_000);
afterAll(() => java?.close());

/** The state line format of CachesHandler's `cache.state`: `path:version:hex` sorted, joined by `;`. */
function stateOf(entries: Iterable<{ path: string; version: number; data: string | null }>): string {
  return [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((e) => `${e.path}:${e.version}:${e.data ?? 'null'}`)
    .join(';');
}

async function serverState(client: TestClient, root: string): Promise<string> {
  const tree = await readServerTree(client, root);
  return stateOf([...tree].map(([path, v]) => ({ path, version: v.version, data: v.data })));
}

function ourState(cache: CuratorCache): string {
  return stateOf(
    cache.entries().map((e) => ({
      path: e.path,
      version: e.stat.version,
      data: e.data === null ? null : Buffer.from(e.data).toString('hex'),
    })),
  );
}

describe("our CuratorCache and Curator's on one tree", () => {
  it('see the same final state and the same multiset of events for a scripted series of changes', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/interop-cache';
    await writer.create(`${root}/a/x`, 'ax', { createParents: true });
    await writer.create(`${root}/b`, 'b');

    await using ours = new CuratorCache(observer, root);
    const ourEvents = recordEvents(ours);
    await java.call('t', 'cache.start', 'c', root);
    await ours.start();
    expect(await java.call('t', 'cache.await', 'c', 20_000)).toBe('true');
    expect(await ours.awaitInitialized({ timeoutMs: 20_000 })).toBe(true);

    const script: (() => Promise<unknown>)[] = [
      () => writer.setData(`${root}/b`, 'b2'),
      () => writer.create(`${root}/a/y`, 'ay'),
      () => writer.create(`${root}/c`, 'c'),
      () => writer.delete(`${root}/a/x`),
      () => writer.setData(`${root}/a`, 'a-data'),
      () => writer.create(`${root}/a/y/z`, 'deep'),
      () => writer.delete(`${root}/a/y/z`),
      () => writer.delete(`${root}/a/y`),
      () => writer.delete(`${root}/a`),
      () => writer.create(`${root}/a`, 'a-again'),
      () => writer.setData(root, 'root-data'),
      () => writer.setData(`${root}/c`, 'c2'),
      () => writer.delete(`${root}/b`),
    ];
    for (const [index, step] of script.entries()) {
      await step();
      const expected = await serverState(writer, root);
      // Each step lands in both caches before the next, so neither can merge two changes into one event.
      let javaState = '';
      await eventually(
        async () => {
          javaState = await java.call('t', 'cache.state', 'c');
          return ourState(ours) === expected && javaState === expected;
        },
        { timeoutMs: 5000 },
      ).catch(() => {
        throw new Error(`step ${index}:\nserver ${expected}\nours   ${ourState(ours)}\njava   ${javaState}`);
      });
    }

    expect(await java.call('t', 'cache.state', 'c')).toBe(ourState(ours));
    const javaEvents = (await java.call('t', 'cache.events', 'c')).split(',');
    expect([...ourEvents].sort()).toEqual([...javaEvents].sort());
    expect(javaEvents.length).toBeGreaterThan(script.length); // the initial load's creates are in both
    await java.call('t', 'cache.close', 'c');
  }, 60_000);
});

describe("our GroupMember and Curator's in one group", () => {
  it('see each other, with payloads and payload changes, until one leaves', async () => {
    const group = '/interop-group';
    const members = (member: GroupMember) =>
      [...member.currentMembers()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, payload]) => `${id}=${Buffer.from(payload).toString('utf8')}`)
        .join(',');
    await java.call('g', 'group.join', 'j', group, 'java-1', 'from-java');
    await using node = new GroupMember(real.client(0), group, 'node-1', { payload: 'from-node' });
    await node.start();
    expect(await node.awaitJoined({ timeoutMs: 10_000 })).toBe(true);
    const both = 'java-1=from-java,node-1=from-node';
    await eventually(
      async () => members(node) === both && (await java.call('g', 'group.members', 'j')) === both,
    );

    await node.setThisData('changed-in-node');
    await java.call('g', 'group.set', 'j', 'changed-in-java');
    const changed = 'java-1=changed-in-java,node-1=changed-in-node';
    await eventually(
      async () => members(node) === changed && (await java.call('g', 'group.members', 'j')) === changed,
    );

    await node.close();
    await eventually(async () => (await java.call('g', 'group.members', 'j')) === 'java-1=changed-in-java');
    const watcher = new GroupMember(real.client(1), group, 'node-2', { payload: 'late' });
    await watcher.start();
    await java.call('g', 'group.close', 'j'); // Curator deletes its member node
    await eventually(() => members(watcher) === 'node-2=late');
    await watcher.close();
  }, 60_000);
});
