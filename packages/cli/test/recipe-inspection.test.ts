/**
 * `locks`, `leader` and `queue` read the layouts that Curator's recipes leave in ZooKeeper. The recipes here
 * are ours (@zkwire/recipes, @zkwire/queues), whose layouts are held equal to Curator 5.4's by those
 * packages' interop tests; each participant has its own session, so the session ids the CLI prints tell them
 * apart.
 */
import {
  DistributedDelayQueue,
  DistributedPriorityQueue,
  DistributedQueue,
  SimpleDistributedQueue,
  stringSerializer,
} from '@zkwire/queues';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreV2,
  LeaderLatch,
  LeaderSelector,
} from '@zkwire/recipes';
import { eventually } from '@zkwire/testing';
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import { useCliServer } from './helpers/cli-server.js';

const cli = useCliServer();
const clients: ZooKeeperClient[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
});

async function participants(n: number): Promise<ZooKeeperClient[]> {
  const opened = await Promise.all(
    Array.from({ length: n }, () => connect({ connectString: cli.server.connectString })),
  );
  clients.push(...opened);
  return opened;
}

const session = (client: ZooKeeperClient) => `0x${client.sessionId.toString(16)}`;

function waitForChildren(path: string, count: number): Promise<void> {
  return eventually(async () => (await cli.zk.getChildren(path).catch(() => [])).length >= count, {
    what: `${path} to have ${count} children`,
    timeoutMs: 5_000,
  });
}

describe('locks', () => {
  it('a mutex: the holder, then the waiters in the order they will get it', async () => {
    const [a, b, c] = await participants(3);
    const holder = new InterProcessMutex(a as ZooKeeperClient, '/locks/mutex');
    expect(await holder.acquire()).toBe(true);
    cleanups.push(() => holder.release());
    for (const client of [b, c] as ZooKeeperClient[]) {
      const waiter = new InterProcessMutex(client, '/locks/mutex');
      const stop = new AbortController();
      waiter.acquire({ signal: stop.signal }).catch(() => {});
      cleanups.push(async () => stop.abort());
      await waitForChildren('/locks/mutex', clients.indexOf(client) + 1);
    }
    const { stdout, code } = await cli.run(['locks', '/locks/mutex', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.kind).toBe('mutex');
    expect(report.holders.map((h: { session: string }) => h.session)).toEqual([
      session(a as ZooKeeperClient),
    ]);
    expect(report.waiters.map((w: { session: string }) => w.session)).toEqual([
      session(b as ZooKeeperClient),
      session(c as ZooKeeperClient),
    ]);
    const text = await cli.run(['locks', '/locks/mutex']);
    expect(text.stdout).toMatch(/holders \(1\)\n +1\. _c_[0-9a-f-]{36}-lock-\d{10} {2}session 0x/);
    expect(text.stdout).toContain('waiting, in order (2)');
  });

  it('a read-write lock: readers ahead of the first writer hold; the writer and the readers behind it wait', async () => {
    const [r1, r2, w, r3] = await participants(4);
    const held = new InterProcessReadWriteLock(r1 as ZooKeeperClient, '/locks/rw');
    const held2 = new InterProcessReadWriteLock(r2 as ZooKeeperClient, '/locks/rw');
    expect(await held.readLock().acquire()).toBe(true);
    expect(await held2.readLock().acquire()).toBe(true);
    cleanups.push(
      () => held.readLock().release(),
      () => held2.readLock().release(),
    );
    let expected = 3;
    for (const [client, kind] of [
      [w, 'write'],
      [r3, 'read'],
    ] as const) {
      const lock = new InterProcessReadWriteLock(client as ZooKeeperClient, '/locks/rw');
      const stop = new AbortController();
      (kind === 'write' ? lock.writeLock() : lock.readLock())
        .acquire({ signal: stop.signal })
        .catch(() => {});
      cleanups.push(async () => stop.abort());
      await waitForChildren('/locks/rw', expected++);
    }
    const report = JSON.parse((await cli.run(['locks', '/locks/rw', '--json'])).stdout);
    expect(report.kind).toBe('read-write');
    expect(report.holders.map((h: { mode: string; session: string }) => [h.mode, h.session])).toEqual([
      ['read', session(r1 as ZooKeeperClient)],
      ['read', session(r2 as ZooKeeperClient)],
    ]);
    expect(report.waiters.map((h: { mode: string; session: string }) => [h.mode, h.session])).toEqual([
      ['write', session(w as ZooKeeperClient)],
      ['read', session(r3 as ZooKeeperClient)],
    ]);
  });

  it('a semaphore: its leases, and with --max-leases which hold and which wait', async () => {
    const [a, b, c] = await participants(3);
    const leases = [];
    for (const client of [a, b] as ZooKeeperClient[]) {
      const semaphore = new InterProcessSemaphoreV2(client, '/locks/sem', 2);
      const lease = await semaphore.acquire();
      expect(lease).not.toBeNull();
      leases.push(lease);
      if (lease) cleanups.push(() => lease.close());
    }
    // A third one waits: it holds the semaphore's internal mutex and has made its lease node.
    const stop = new AbortController();
    new InterProcessSemaphoreV2(c as ZooKeeperClient, '/locks/sem', 2)
      .acquire({ signal: stop.signal })
      .catch(() => {});
    cleanups.push(async () => stop.abort());
    await waitForChildren('/locks/sem/leases', 3);
    const report = JSON.parse((await cli.run(['locks', '/locks/sem', '--json', '--max-leases', '2'])).stdout);
    expect(report.kind).toBe('semaphore');
    expect(report.holders.map((h: { session: string }) => h.session)).toEqual([
      session(a as ZooKeeperClient),
      session(b as ZooKeeperClient),
    ]);
    expect(report.waiters.map((h: { session: string }) => h.session)).toEqual([
      session(c as ZooKeeperClient),
    ]);
    expect(report.acquiring.map((h: { session: string }) => h.session)).toEqual([
      session(c as ZooKeeperClient),
    ]);
    const unknown = await cli.run(['locks', '/locks/sem']);
    expect(unknown.stdout).toContain('leases (--max-leases tells holders from waiters) (3)');
    const free = await cli.run(['locks', '/locks/nobody-here']);
    expect(free.stdout).toBe('/locks/nobody-here: no lock nodes (free)\n');
  });
});

describe('leader', () => {
  it('a LeaderLatch: the leader and the participants with their ids and sessions', async () => {
    const [a, b] = await participants(2);
    const first = new LeaderLatch(a as ZooKeeperClient, '/election/latch', { id: 'node-A' });
    await first.start();
    const second = new LeaderLatch(b as ZooKeeperClient, '/election/latch', { id: 'node-B' });
    await second.start();
    cleanups.push(
      () => second.close(),
      () => first.close(),
    );
    await waitForChildren('/election/latch', 2);
    const { stdout, code } = await cli.run(['leader', '/election/latch', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.recipe).toBe('LeaderLatch');
    expect(report.leader).toMatchObject({
      id: 'node-A',
      session: session(a as ZooKeeperClient),
      isLeader: true,
    });
    expect(report.participants.map((p: { id: string }) => p.id)).toEqual(['node-A', 'node-B']);
    const text = await cli.run(['leader', '/election/latch']);
    expect(text.stdout).toContain(`leader: node-A  session ${session(a as ZooKeeperClient)}`);
  });

  it('a LeaderSelector: the one running takeLeadership is the leader', async () => {
    const [a, b] = await participants(2);
    let leading: () => void = () => {};
    const led = new Promise<void>((resolve) => (leading = resolve));
    const selectors = [a, b].map(
      (client, index) =>
        new LeaderSelector(
          client as ZooKeeperClient,
          '/election/selector',
          async ({ signal }) => {
            leading();
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          },
          { id: `sel-${index}` },
        ),
    );
    selectors[0]?.start();
    await led;
    selectors[1]?.start();
    cleanups.push(...selectors.map((selector) => () => selector.close()));
    await waitForChildren('/election/selector', 2);
    const report = JSON.parse((await cli.run(['leader', '/election/selector', '--json'])).stdout);
    expect(report.recipe).toBe('LeaderSelector');
    expect(report.leader).toMatchObject({ id: 'sel-0', session: session(a as ZooKeeperClient) });
    expect(report.participants.map((p: { id: string }) => p.id)).toEqual(['sel-0', 'sel-1']);
  });
});

describe('queue', () => {
  it('a distributed queue: nodes in order, batch sizes decoded, the oldest age, items held by consumers', async () => {
    const [producer, consumer] = await participants(2);
    const queue = new DistributedQueue(producer as ZooKeeperClient, '/queues/plain', {
      serializer: stringSerializer,
      lockPath: '/queues/plain-locks',
    });
    await queue.start();
    await queue.put('first');
    await queue.putMulti(['a', 'bb', 'ccc']);
    cleanups.push(() => queue.close());
    // A lock-safe consumer that holds the first item and does not finish it while we look.
    const consuming = new DistributedQueue(consumer as ZooKeeperClient, '/queues/plain', {
      serializer: stringSerializer,
      lockPath: '/queues/plain-locks',
    });
    await consuming.start();
    const stop = new AbortController();
    let holding: () => void = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    consuming
      .consume(
        async () => {
          holding();
          await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
        },
        { signal: stop.signal },
      )
      .catch(() => {});
    cleanups.push(async () => {
      stop.abort();
      await consuming.close();
    });
    await held;
    const { stdout, code } = await cli.run([
      'queue',
      '/queues/plain',
      '--lock-path',
      '/queues/plain-locks',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ kind: 'distributed', nodes: 2, items: 4 });
    expect(report.entries.map((e: { items: number }) => e.items)).toEqual([1, 3]);
    expect(report.entries[0]).toMatchObject({
      preview: 'first',
      lockedBy: session(consumer as ZooKeeperClient),
    });
    expect(report.entries[1].lockedBy).toBeUndefined();
    expect(report.oldestAgeMs).toBeGreaterThanOrEqual(0);
    const text = await cli.run(['queue', '/queues/plain', '--lock-path', '/queues/plain-locks']);
    expect(text.stdout).toMatch(
      /^\/queues\/plain: distributed queue, 2 nodes, 4 items, oldest [\d.]+ (ms|s) old\n/,
    );
    expect(text.stdout).toContain(`locked by ${session(consumer as ZooKeeperClient)}`);
  });

  it('a priority queue: nodes in consumption order with their priorities; a corrupt batch is named', async () => {
    const [producer] = await participants(1);
    const queue = new DistributedPriorityQueue(producer as ZooKeeperClient, '/queues/prio', {
      serializer: stringSerializer,
    });
    await queue.start();
    cleanups.push(() => queue.close());
    await queue.put('low', 10);
    await queue.put('urgent', -5);
    await queue.put('middle', 0);
    await cli.zk.create('/queues/prio/queue-1000000630000000099', Buffer.from('not a batch'));
    const report = JSON.parse((await cli.run(['queue', '/queues/prio', '--json'])).stdout);
    expect(report.kind).toBe('priority');
    expect(report.entries.map((e: { priority: number }) => e.priority)).toEqual([-5, 0, 10, 99]);
    expect(report.entries.map((e: { preview?: string }) => e.preview)).toEqual([
      'urgent',
      'middle',
      'low',
      undefined,
    ]);
    expect(report.entries[3].corrupt).toMatch(/version/);
  });

  it('a delay queue in due order with due times, and a simple queue of raw items', async () => {
    const [producer] = await participants(1);
    const delayed = new DistributedDelayQueue(producer as ZooKeeperClient, '/queues/delay', {
      serializer: stringSerializer,
    });
    await delayed.start();
    cleanups.push(() => delayed.close());
    const later = Date.now() + 3_600_000;
    await delayed.put('later', later);
    await delayed.put('sooner', later - 60_000);
    const simple = new SimpleDistributedQueue(producer as ZooKeeperClient, '/queues/simple');
    await simple.offer('raw-1');
    await simple.offer(Buffer.from([0xff, 0x00]));
    const [delayReport, simpleReport] = (
      await Promise.all([
        cli.run(['queue', '/queues/delay', '--json']),
        cli.run(['queue', '/queues/simple', '--json']),
      ])
    ).map((run) => JSON.parse(run.stdout));
    expect(delayReport.kind).toBe('delay');
    expect(delayReport.entries.map((e: { preview: string; dueAt: string }) => [e.preview, e.dueAt])).toEqual([
      ['sooner', new Date(later - 60_000).toISOString()],
      ['later', new Date(later).toISOString()],
    ]);
    expect(simpleReport).toMatchObject({ kind: 'simple', nodes: 2, items: 2 });
    expect(simpleReport.entries.map((e: { preview: string }) => e.preview)).toEqual(['raw-1', '0xff00']);
  });
});
