/**
 * Metrics against a real ZooKeeper server, read from the OpenTelemetry SDK's in-memory metric exporter:
 * request durations, the client's state, connection, watch and read-pacing channels, lock holds,
 * leadership and queue traffic, each with the names, units and attributes the README documents.
 */
import diagnostics from 'node:diagnostics_channel';
import { DistributedQueue, stringSerializer } from '@zkwire/queues';
import { InterProcessMutex, LeaderLatch } from '@zkwire/recipes';
import { eventually } from '@zkwire/testing';
import { ChannelName, connect } from '@zkwire/zk-wire-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instrumentZkwire, MetricName, type ZkwireInstrumentation } from '../src/index.js';
import {
  createTelemetry,
  listenedChannels,
  points,
  type Telemetry,
  uniquePath,
  unitOf,
  useServer,
} from './helpers.js';

const fixture = useServer();

let telemetry: Telemetry;
let instrumentation: ZkwireInstrumentation;
beforeEach(() => {
  telemetry = createTelemetry();
  instrumentation = instrumentZkwire(telemetry);
});
afterEach(async () => {
  instrumentation.disable();
  await telemetry.shutdown();
  expect(listenedChannels()).toEqual([]);
});

describe('client metrics', () => {
  it('records each request duration in seconds, by operation and outcome', async () => {
    const zk = fixture.client;
    const path = uniquePath('duration');
    await zk.create(path, 'x');
    await zk.getData(path);
    await zk.getData(path);
    await zk.getData(`${path}/missing`).catch(() => {});

    const metrics = await telemetry.collect();
    expect(unitOf(metrics, MetricName.requestDuration)).toBe('s');
    const durations = points(metrics, MetricName.requestDuration);
    expect(durations.map(({ attributes, count }) => ({ attributes, count }))).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            'db.system.name': 'zookeeper',
            'db.operation.name': 'create',
            'zkwire.outcome': 'success',
          },
          count: 1,
        },
        {
          attributes: {
            'db.system.name': 'zookeeper',
            'db.operation.name': 'getData',
            'zkwire.outcome': 'success',
          },
          count: 2,
        },
        {
          attributes: {
            'db.system.name': 'zookeeper',
            'db.operation.name': 'getData',
            'zkwire.outcome': 'error',
            'error.type': 'NONODE',
          },
          count: 1,
        },
      ]),
    );
    expect(durations).toHaveLength(3);
    for (const point of durations) expect(point.value).toBeGreaterThan(0);
  });

  it('counts connection attempts, state changes and watch events', async () => {
    const path = uniquePath('watched');
    const zk = await connect({ connectString: fixture.server.connectString });
    await zk.create(path, 'x');
    const fired = new Promise<void>((resolve) => {
      void zk.getData(path, { watch: () => resolve() });
    });
    await zk.setData(path, 'y');
    await fired;
    await zk.close();

    const metrics = await telemetry.collect();
    expect(points(metrics, MetricName.connectionAttempts)).toEqual([
      { attributes: { 'server.address': '127.0.0.1', 'server.port': fixture.server.port }, value: 1 },
    ]);
    expect(points(metrics, MetricName.stateChanges)).toEqual(
      expect.arrayContaining([
        { attributes: { 'zkwire.session.state': 'connected' }, value: 1 },
        {
          attributes: { 'zkwire.session.state': 'connected', 'zkwire.connection.state': 'connected' },
          value: 1,
        },
        { attributes: expect.objectContaining({ 'zkwire.session.state': 'closed' }), value: 1 },
      ]),
    );
    expect(points(metrics, MetricName.watchEvents)).toEqual([
      { attributes: { 'zkwire.watch.event_type': 'dataChanged' }, value: 1 },
    ]);
  });

  it('counts every read-pacing wait the client publishes, with its length', async () => {
    const path = uniquePath('pacing');
    await fixture.client.create(path, 'x');
    const published: unknown[] = [];
    const listener = (message: unknown) => void published.push(message);
    diagnostics.subscribe(ChannelName.readPacing, listener);
    await using zk = await connect({ connectString: fixture.server.connectString });
    try {
      // 1,000 calls in flight make the client pace its reads (see the client's read-pacing tests); keep
      // them going until it has, or give up after 100,000 calls.
      let issued = 0;
      const slot = async () => {
        while (published.length === 0 && issued < 100_000) {
          issued++;
          await zk.getData(path);
        }
      };
      await Promise.all(Array.from({ length: 1000 }, slot));
    } finally {
      diagnostics.unsubscribe(ChannelName.readPacing, listener);
    }
    expect(published.length).toBeGreaterThan(0);

    const metrics = await telemetry.collect();
    expect(points(metrics, MetricName.readPacingWaits)).toEqual([
      { attributes: {}, value: published.length },
    ]);
    expect(unitOf(metrics, MetricName.readPacingWaitDuration)).toBe('s');
    expect(points(metrics, MetricName.readPacingWaitDuration)).toEqual([
      { attributes: {}, value: expect.any(Number), count: published.length },
    ]);
  });
});

describe('recipe and queue metrics', () => {
  it('records a mutex acquire and release: events, the wait and the time held', async () => {
    const mutex = new InterProcessMutex(fixture.client, uniquePath('mutex'));
    expect(await mutex.acquire({ timeoutMs: 10_000 })).toBe(true);
    await mutex.release();

    const metrics = await telemetry.collect();
    expect(points(metrics, MetricName.holdEvents)).toEqual([
      { attributes: { 'zkwire.hold.kind': 'lock', 'zkwire.hold.event': 'acquired' }, value: 1 },
      { attributes: { 'zkwire.hold.kind': 'lock', 'zkwire.hold.event': 'released' }, value: 1 },
    ]);
    expect(unitOf(metrics, MetricName.holdWaitDuration)).toBe('s');
    expect(points(metrics, MetricName.holdWaitDuration)).toEqual([
      { attributes: { 'zkwire.hold.kind': 'lock' }, value: expect.any(Number), count: 1 },
    ]);
    expect(points(metrics, MetricName.holdDuration)).toEqual([
      {
        attributes: { 'zkwire.hold.kind': 'lock', 'zkwire.hold.event': 'released' },
        value: expect.any(Number),
        count: 1,
      },
    ]);
  });

  it('records a lock lost (its node deleted by someone else) with the reason and the time held', async () => {
    const mutex = new InterProcessMutex(fixture.client, uniquePath('lost'));
    expect(await mutex.acquire({ timeoutMs: 10_000 })).toBe(true);
    const lost = new Promise((resolve) => mutex.once('lost', resolve));
    await fixture.client.delete(mutex.lockNodePath!);
    await lost;
    await mutex.release(); // the node is gone already: release still completes

    const metrics = await telemetry.collect();
    expect(points(metrics, MetricName.holdEvents)).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            'zkwire.hold.kind': 'lock',
            'zkwire.hold.event': 'lost',
            'zkwire.hold.reason': 'deleted',
          },
          value: 1,
        },
      ]),
    );
    expect(points(metrics, MetricName.holdDuration)).toEqual(
      expect.arrayContaining([
        {
          attributes: { 'zkwire.hold.kind': 'lock', 'zkwire.hold.event': 'lost' },
          value: expect.any(Number),
          count: 1,
        },
      ]),
    );
  });

  it('counts leadership gained and lost, with the election path', async () => {
    const path = uniquePath('latch');
    const latch = new LeaderLatch(fixture.client, path, { id: 'otel-node' });
    await latch.start();
    await eventually(() => latch.hasLeadership, 'leadership');
    await latch.close();

    const metrics = await telemetry.collect();
    const election = { 'zkwire.leadership.recipe': 'LeaderLatch', 'zkwire.leadership.path': path };
    expect(points(metrics, MetricName.leadershipChanges)).toEqual([
      { attributes: { ...election, 'zkwire.leadership.event': 'gained' }, value: 1 },
      {
        attributes: { ...election, 'zkwire.leadership.event': 'lost', 'zkwire.leadership.reason': 'closed' },
        value: 1,
      },
    ]);
  });

  it('counts queue batches and items put and consumed, per queue', async () => {
    const path = uniquePath('queue');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    await queue.put('one');
    await queue.putMulti(['two', 'three']);
    const seen: string[] = [];
    const stop = new AbortController();
    await queue.consume(
      (item) => {
        seen.push(item);
        if (seen.length === 3) stop.abort();
      },
      { signal: stop.signal },
    );
    await queue.close();
    expect(seen).toEqual(['one', 'two', 'three']);

    const metrics = await telemetry.collect();
    const put = { 'zkwire.queue.event': 'put', 'zkwire.queue.path': path };
    const consumed = { 'zkwire.queue.event': 'consumed', 'zkwire.queue.path': path };
    expect(points(metrics, MetricName.queueBatches)).toEqual([
      { attributes: put, value: 2 },
      { attributes: consumed, value: 2 },
    ]);
    expect(points(metrics, MetricName.queueItems)).toEqual([
      { attributes: put, value: 3 },
      { attributes: consumed, value: 3 },
    ]);
  });

  it('counts a batch requeued after a consumer error, then consumed', async () => {
    const path = uniquePath('requeue');
    const errors: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      lockPath: `${path}-locks`,
      onError: (error) => void errors.push(error),
    });
    await queue.putMulti(['a', 'b']);
    let deliveries = 0;
    const stop = new AbortController();
    await queue.consume(
      () => {
        deliveries++;
        if (deliveries === 1) throw new Error('first delivery fails');
        if (deliveries === 3) stop.abort();
      },
      { signal: stop.signal },
    );
    await queue.close();
    expect(errors).toHaveLength(1);

    const metrics = await telemetry.collect();
    const attributes = (event: string) => ({ 'zkwire.queue.event': event, 'zkwire.queue.path': path });
    expect(points(metrics, MetricName.queueBatches)).toEqual([
      { attributes: attributes('put'), value: 1 },
      { attributes: attributes('requeued'), value: 1 },
      { attributes: attributes('consumed'), value: 1 },
    ]);
    expect(points(metrics, MetricName.queueItems)).toEqual([
      { attributes: attributes('put'), value: 2 },
      { attributes: attributes('requeued'), value: 2 },
      { attributes: attributes('consumed'), value: 2 },
    ]);
  });
});
