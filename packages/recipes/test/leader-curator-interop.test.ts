/**
 * Interop with real Curator (5.9.0 by default, a Java driver compiled at test time) on one real server:
 * a Java and a Node LeaderLatch agree on one leader and hand over both ways; Java and Node LeaderSelectors take
 * turns; a double barrier mixes members of both; Java's SharedCount / DistributedAtomicLong and ours see the
 * same values and bytes. "Still waits" checks follow a write every session (Java's too) reports seeing.
 */
import { eventually, parseWatchesByPath, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistributedAtomicLong } from '../src/atomic/atomic-number.js';
import { DistributedDoubleBarrier } from '../src/barriers/distributed-double-barrier.js';
import { LeaderLatch } from '../src/leader/leader-latch.js';
import { LeaderSelector } from '../src/leader/leader-selector.js';
import { SharedCount } from '../src/shared/shared-count.js';
import {
  childrenOf,
  closeAll,
  deferred,
  openClient,
  settledFlag,
  type TestClient,
  trackReads,
  watchBarrier,
} from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

type Tracked = ReturnType<typeof trackReads>;

describe('interop with Curator (real server)', () => {
  let server: ZooKeeperServer;
  let java: JavaDriver;
  let clients: TestClient[] = [];

  beforeAll(async () => {
    server = await startZooKeeper();
    [java, ...clients] = await Promise.all([
      startJavaDriver({
        connectString: server.connectString,
        handlers: ['drivers-elections/ElectionsHandler.java'],
      }),
      openClient(server.connectString),
      openClient(server.connectString),
    ]);
  });

  /**
   * A write every session here observes, for negative checks: the Node clients through exists watches, Java
   * through its `watch` event, then a round trip through the driver. Each session gets its events in zxid
   * order, so once all have seen this write, every event of an earlier write has reached them as well.
   */
  async function observedByAll(writer: TestClient, checkPath: string): Promise<void> {
    await java.call('a', 'watch', checkPath);
    await watchBarrier(clients, writer, checkPath);
    await java.waitForEvent(`watched ${checkPath}`);
    await java.call('a', 'data', '/interop');
  }

  afterAll(async () => {
    await java?.close();
    await closeAll(clients);
    await server?.stop();
  });

  it('a Java and a Node LeaderLatch agree on one leader and hand over both ways', async () => {
    const path = '/interop/latch';
    const [client] = clients as [TestClient];
    await java.call('a', 'latch.start', 'j1', path, 'java-1');
    expect(await java.call('a', 'latch.await', 'j1', 20_000)).toBe('true');

    await using node = new LeaderLatch(client, path, { id: 'node-1' });
    await node.start();
    expect(await node.await({ timeoutMs: 300 })).toBe(false);
    expect(await node.getParticipants()).toEqual([
      { id: 'java-1', isLeader: true },
      { id: 'node-1', isLeader: false },
    ]);
    expect(await java.call('a', 'latch.participants', 'j1')).toBe('*java-1,node-1');
    expect(await java.call('a', 'latch.has', 'j1')).toBe('true');

    // Java leaves: Node leads, and Java sees it.
    await java.call('a', 'latch.close', 'j1');
    await java.waitForEvent('latch j1 notLeader');
    expect(await node.await({ timeoutMs: 20_000 })).toBe(true);

    await java.call('a', 'latch.start', 'j2', path, 'java-2');
    expect(await java.call('a', 'latch.leader', 'j2')).toBe('node-1');
    expect(await java.call('a', 'latch.await', 'j2', 300)).toBe('false');
    expect(await java.call('a', 'latch.has', 'j2')).toBe('false');

    // Node leaves: Java leads.
    await node.close();
    await java.waitForEvent('latch j2 isLeader');
    expect(await java.call('a', 'latch.has', 'j2')).toBe('true');
    expect(node.hasLeadership).toBe(false);
    await java.call('a', 'latch.close', 'j2');
    await eventually(async () => (await childrenOf(client, path)).length === 0);
  });

  it('a Java and a Node LeaderSelector take turns on one path, never leading at once', async () => {
    const path = '/interop/selector';
    const [client] = clients as [TestClient];
    await java.call('a', 'selector.start', 'js', path, 'java-sel');
    await java.waitForEvent('selector js leading');

    const nodeLeads = deferred<string>();
    const nodeMayFinish = deferred();
    const node = new LeaderSelector(
      client,
      path,
      async () => {
        nodeLeads.resolve(await java.call('a', 'selector.has', 'js')); // Java's view while we lead
        await nodeMayFinish.promise;
      },
      { id: 'node-sel' },
    );
    node.start();
    await eventually(async () => (await node.getParticipants()).length === 2);
    expect(await node.getParticipants()).toEqual([
      { id: 'java-sel', isLeader: true },
      { id: 'node-sel', isLeader: false },
    ]);
    expect(await java.call('a', 'selector.leader', 'js')).toBe('java-sel');

    await java.call('a', 'selector.yield', 'js'); // Java's term ends; it requeues behind us
    expect(await nodeLeads.promise).toBe('false');
    expect(node.hasLeadership).toBe(true);
    await eventually(
      async () => (await java.call('a', 'selector.participants', 'js')) === '*node-sel,java-sel',
    );

    nodeMayFinish.resolve(); // our term ends: Java leads again
    await java.waitForEvent('selector js leading', 2);
    expect(node.hasLeadership).toBe(false);
    expect(await java.call('a', 'selector.has', 'js')).toBe('true');
    await java.call('a', 'selector.yield', 'js');
    await java.call('a', 'selector.close', 'js');
    await node.close();
    await eventually(async () => (await childrenOf(client, path)).length === 0);
  });

  it('a double barrier with Java and Node members enters and leaves together', async () => {
    const path = '/interop/dbarrier';
    const [c1, c2] = clients as [TestClient, TestClient];
    const tracked = [c1, c2].map((client) => trackReads(client));
    await java.call('a', 'dbarrier.new', 'jb1', path, 4);
    await java.call('a', 'dbarrier.new', 'jb2', path, 4);
    const node1 = new DistributedDoubleBarrier((tracked[0] as Tracked).client, path, 4);
    const node2 = new DistributedDoubleBarrier((tracked[1] as Tracked).client, path, 4);

    // Three of four in: nobody passes.
    const javaEnter1 = java.call('e1', 'dbarrier.enter', 'jb1', 30_000);
    const nodeEnter1 = node1.enter({ timeoutMs: 30_000 });
    const nodeEnter2 = node2.enter({ timeoutMs: 30_000 });
    const entered = settledFlag(Promise.all([javaEnter1, nodeEnter1, nodeEnter2]));
    // Java creates its member node after its watched exists(ready); each Node member has counted the members.
    await eventually(async () => (await childrenOf(c1, path)).length === 3);
    await eventually(() =>
      tracked.every(({ settled }) => settled.some((r) => r.method === 'getChildren' && r.path === path)),
    );
    const firstThree = await childrenOf(c1, path);
    const nodeNames = [node1, node2].map((member) => member.ourPath.slice(path.length + 1));
    await observedByAll(c1, `${path}-check-enter`);
    expect(entered.settled).toBe(false);
    // Nobody made `ready`: exactly three child changes (the members) happened under the barrier node.
    expect((await c1.exists(path))?.cversion).toBe(3);
    const javaEnter2 = java.call('e2', 'dbarrier.enter', 'jb2', 30_000);
    expect(await Promise.all([javaEnter1, javaEnter2])).toEqual(['true', 'true']);
    expect(await Promise.all([nodeEnter1, nodeEnter2])).toEqual([true, true]);
    const allIn = await childrenOf(c1, path);
    expect(allIn).toContain('ready');
    const lastMember = allIn.find((name) => name !== 'ready' && !firstThree.includes(name)) as string;

    // Leaving: nobody is done while two members are still in. (Not "until the last one left": Curator 5.4's
    // leave deletes its own node at once and returns when at most one node is left, which may be a member
    // that has not called leave yet; ours does the same once its node is gone.)
    const watchesBefore = (tracked[0] as Tracked).settled.filter((r) => r.watched).length;
    const javaLeave1 = java.call('e1', 'dbarrier.leave', 'jb1', 30_000);
    const nodeLeave1 = node1.leave({ timeoutMs: 30_000 });
    const left = settledFlag(Promise.all([javaLeave1, nodeLeave1]));
    // node1 armed the watch it waits on, and the server lists a watch of Java's session on a member node (its
    // enter watches were on other paths and have fired): both leavers wait.
    await eventually(() => (tracked[0] as Tracked).settled.filter((r) => r.watched).length > watchesBefore);
    const nodeSessions = clients.map((client) => `0x${client.sessionId.toString(16)}`);
    await eventually(async () =>
      [...parseWatchesByPath(await server.fourLetterWord('wchp'))].some(
        ([watched, sessions]) =>
          watched.startsWith(`${path}/`) && sessions.some((session) => !nodeSessions.includes(session)),
      ),
    );
    await observedByAll(c1, `${path}-check-leave`);
    expect(left.settled).toBe(false);
    expect(await childrenOf(c1, path)).toEqual(expect.arrayContaining([lastMember, nodeNames[1]]));
    const javaLeave2 = java.call('e2', 'dbarrier.leave', 'jb2', 30_000);
    const nodeLeave2 = node2.leave({ timeoutMs: 30_000 });
    expect(await Promise.all([javaLeave1, javaLeave2])).toEqual(['true', 'true']);
    expect(await Promise.all([nodeLeave1, nodeLeave2])).toEqual([true, true]);
    await eventually(async () => (await childrenOf(c1, path)).length === 0);
  });

  it("a Java SharedCount and ours see each other's values, bytes and versions", async () => {
    const path = '/interop/count';
    const [client] = clients as [TestClient];
    expect(await java.call('a', 'count.start', 'jc', path, 5)).toBe('5');
    await using count = new SharedCount(client, path, 99);
    await count.start();
    expect(count.count).toBe(5);

    await count.setCount(-2);
    await java.waitForEvent('count jc -2');
    expect(await java.call('a', 'data', path)).toBe('fffffffe');

    const seen = deferred<number>();
    count.on('change', (value) => {
      if (value === 11) seen.resolve(value);
    });
    await java.call('a', 'count.set', 'jc', 11);
    expect(await seen.promise).toBe(11);

    // Java's compare-and-set wins from the version it saw; ours from the older version then fails.
    const stale = count.versionedValue;
    expect(await java.call('a', 'count.tryset', 'jc', 12)).toBe('true');
    expect(await count.trySetCount(stale, 13)).toBe(false);
    await eventually(() => count.count === 12);
    expect(await count.trySetCount(count.versionedValue, 14)).toBe(true);
    await java.waitForEvent('count jc 14');
    expect(await java.call('a', 'count.versioned', 'jc')).toBe(`14 ${count.versionedValue.version}`);
    await java.call('a', 'count.close', 'jc');
  });

  it('a Java DistributedAtomicLong and ours count together without losing updates', async () => {
    const path = '/interop/along';
    const [client] = clients as [TestClient];
    await java.call('a', 'along.new', 'jl', path);
    expect(await java.call('a', 'along.add', 'jl', 1)).toBe('true 0 1');
    const counter = new DistributedAtomicLong(client, path, { retry: { maxRetries: 1000, sleepMs: 1 } });
    expect(await counter.add(255)).toMatchObject({ succeeded: true, preValue: 1n, postValue: 256n });
    expect(await java.call('a', 'data', path)).toBe('0000000000000100');
    expect(await java.call('a', 'along.get', 'jl')).toBe('true 256 256');

    const javaAdds = Array.from({ length: 25 }, (_, i) => java.call(`add${i % 5}`, 'along.add', 'jl', 1));
    const nodeAdds = Array.from({ length: 25 }, () => counter.increment());
    const javaResults = await Promise.all(javaAdds);
    const nodeResults = await Promise.all(nodeAdds);
    expect(javaResults.every((line) => line.startsWith('true '))).toBe(true);
    expect(nodeResults.every((result) => result.succeeded)).toBe(true);
    expect((await counter.get()).postValue).toBe(306n);
    expect(await java.call('a', 'along.cas', 'jl', 306, -1)).toBe('true 306 -1');
    expect((await counter.get()).postValue).toBe(-1n);
  });
});
