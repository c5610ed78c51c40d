/**
 * The diagnostics channels (docs/contracts.md, "Diagnostics channels") against a real server: request tracing
 * with the TracingChannel events and their shared context, state changes, connection attempts and watch events.
 */
import diagnostics from 'node:diagnostics_channel';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChannelName,
  type ConnectMessage,
  connect,
  type RequestTraceContext,
  type StateMessage,
  type WatchEventMessage,
} from '../src/index.js';

let server: ZooKeeperServer;
beforeAll(async () => {
  server = await startZooKeeper();
});
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

/** Subscribes to a plain channel until the returned function is called. */
function record<T>(name: string): { messages: T[]; stop: () => void } {
  const messages: T[] = [];
  const listener = (message: unknown) => messages.push(message as T);
  diagnostics.subscribe(name, listener);
  return { messages, stop: () => diagnostics.unsubscribe(name, listener) };
}

describe('diagnostics channels', () => {
  it('traces each request: start and end at the call, error, asyncStart and asyncEnd when it settles', async () => {
    const zk = await connect({ connectString: server.connectString });
    const events: [string, RequestTraceContext][] = [];
    const on = (name: string) => (context: unknown) => {
      events.push([name, context as RequestTraceContext]);
    };
    const handlers = {
      start: on('start'),
      end: on('end'),
      asyncStart: on('asyncStart'),
      asyncEnd: on('asyncEnd'),
      error: on('error'),
    };
    const channel = diagnostics.tracingChannel(ChannelName.request);
    channel.subscribe(handlers);
    try {
      const created = zk.create('/traced', 'hello');
      const missing = zk.getData('/traced-missing').catch((e) => e);
      expect(events.map(([name, c]) => `${name}:${c.operation}`)).toEqual([
        'start:create',
        'end:create',
        'start:getData',
        'end:getData',
      ]);
      await Promise.all([created, missing]);
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(events.map(([name, c]) => `${name}:${c.operation}`)).toEqual([
      'start:create',
      'end:create',
      'start:getData',
      'end:getData',
      'asyncStart:create',
      'asyncEnd:create',
      'error:getData',
      'asyncStart:getData',
      'asyncEnd:getData',
    ]);
    const create = events[0]![1];
    // One context per request, shared by its events.
    expect(events.filter(([, c]) => c === create)).toHaveLength(4);
    expect(create).toMatchObject({
      operation: 'create',
      path: '/traced',
      result: '/traced',
      errorCode: undefined,
    });
    expect(create.bytesOut).toBeGreaterThan(20);
    expect(create.bytesIn).toBeGreaterThan(16);
    expect(create.durationMs).toBeGreaterThan(0);
    const getData = events[2]![1];
    expect(getData).toMatchObject({ operation: 'getData', path: '/traced-missing', errorCode: 'NONODE' });
    expect(getData.xid).toBe(create.xid + 1);
    await zk.close();
  });

  it('publishes state changes, connection attempts and watch events', async () => {
    const states = record<StateMessage>(ChannelName.state);
    const connects = record<ConnectMessage>(ChannelName.connect);
    const watchEvents = record<WatchEventMessage>(ChannelName.watchEvent);
    try {
      const zk = await connect({ connectString: server.connectString });
      await zk.create('/watched-diag');
      await zk.getData('/watched-diag', { watch: () => {} });
      await zk.setData('/watched-diag', 'x');
      await zk.sync('/watched-diag');
      const sessionId = zk.sessionId;
      await zk.close();
      expect(connects.messages).toEqual([
        { host: '127.0.0.1', port: server.port, sessionId: 0n, reason: undefined, reasonMessage: undefined },
      ]);
      expect(states.messages).toEqual(
        expect.arrayContaining([
          { sessionId, sessionState: 'connected', connectionState: undefined },
          { sessionId, sessionState: 'connected', connectionState: 'connected' },
          expect.objectContaining({ sessionState: 'closed' }),
        ]),
      );
      expect(watchEvents.messages).toMatchObject([
        { event: { type: 'dataChanged', path: '/watched-diag' }, watchers: 1 },
      ]);
    } finally {
      states.stop();
      connects.stop();
      watchEvents.stop();
    }
  });
});
