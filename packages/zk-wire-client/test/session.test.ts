import net from 'node:net';
import { nextState } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConnectionLossError,
  type ConnectionState,
  connect,
  createClient,
  OperationTimeoutError,
  SessionExpiredError,
  type WatchEvent,
  type ZooKeeperClient,
} from '../src/index.js';

import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

// A socket error or internal rejection that escapes the client fails the test that caused it.
failOnProcessErrors();

const fixture = useProxiedServer({ tickTime: 500 });

/** Collects state events until `count` have arrived. */
function collectStates(zk: ZooKeeperClient, count: number): Promise<ConnectionState[]> {
  return (async () => {
    const seen: ConnectionState[] = [];
    for await (const state of zk.states()) {
      seen.push(state);
      if (seen.length === count) break;
    }
    return seen;
  })();
}

describe('closing', () => {
  it('close() ends the session on the server: its ephemerals are gone at once', async () => {
    const zk = await connect({ connectString: fixture.server.connectString });
    await zk.create('/close-eph', null, { mode: 'ephemeral' });
    await zk.close();
    expect(zk.state).toBe('closed');
    expect(await fixture.admin.exists('/close-eph')).toBeNull();
    await expect(zk.getData('/')).rejects.toBeInstanceOf(ClientClosedError);
    await zk.close();
  });

  it('await using closes the client at the end of the scope', async () => {
    let kept: ZooKeeperClient;
    {
      await using zk = await connect({ connectString: fixture.server.connectString });
      kept = zk;
      await zk.create('/dispose-eph', null, { mode: 'ephemeral' });
    }
    expect(kept.state).toBe('closed');
    expect(await fixture.admin.exists('/dispose-eph')).toBeNull();
  });

  it('queued calls fail with ClientClosed when the client closes before connecting', async () => {
    const zk = createClient({ connectString: '127.0.0.1:1' });
    const call = zk.exists('/');
    await zk.close();
    await expect(call).rejects.toBeInstanceOf(ClientClosedError);
    await expect(zk.connected()).rejects.toBeInstanceOf(ClientClosedError);
  });
});

describe('reattaching and expiry', () => {
  it('reattaches to a live session with its id and password', async () => {
    const first = await connect({ connectString: fixture.server.connectString });
    await first.create('/reattach-eph', null, { mode: 'ephemeral' });
    const second = await connect({
      connectString: fixture.server.connectString,
      session: { id: first.sessionId, password: first.sessionPassword },
    });
    expect(second.sessionId).toBe(first.sessionId);
    expect(await second.getEphemerals()).toEqual(['/reattach-eph']);
    await second.close();
    expect(await fixture.admin.exists('/reattach-eph')).toBeNull();
    // The first handle's session was closed by the second: it learns so on its next connection.
    await first.close();
  });

  it('a wrong password means an expired session: connect fails SessionExpired', async () => {
    const live = await connect({ connectString: fixture.server.connectString });
    const attempt = connect({
      connectString: fixture.server.connectString,
      session: { id: live.sessionId, password: new Uint8Array(16) },
    });
    await expect(attempt).rejects.toBeInstanceOf(SessionExpiredError);
    await live.close();
  });

  it('a session closed elsewhere expires this client: state lost, every call SessionExpired', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    const states = collectStates(zk, 2);
    const thief = await connect({
      connectString: fixture.server.connectString,
      session: { id: zk.sessionId, password: zk.sessionPassword },
    });
    await thief.close();
    expect(await states).toEqual(['suspended', 'lost']);
    expect(zk.state).toBe('expired');
    await expect(zk.getData('/')).rejects.toBeInstanceOf(SessionExpiredError);
    await zk.close();
  });

  it('gives each armed one-shot watcher a last sessionExpired event at its path', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    await fixture.admin.create('/expiring', 'x');
    const events: [string, WatchEvent][] = [];
    const dataWatcher = (e: WatchEvent) => events.push(['data', e]);
    const childWatcher = (e: WatchEvent) => events.push(['child', e]);
    await zk.getData('/expiring', { watch: dataWatcher });
    await zk.getChildren('/expiring', { watch: childWatcher });
    await zk.exists('/not-yet', { watch: dataWatcher });
    // Registered twice at one path: still one event.
    await zk.exists('/expiring', { watch: dataWatcher });
    const lost = nextState(zk, 'lost');
    const thief = await connect({
      connectString: fixture.server.connectString,
      session: { id: zk.sessionId, password: zk.sessionPassword },
    });
    await thief.close();
    await lost;
    await new Promise((r) => setImmediate(r));
    expect(events.map(([w, e]) => `${w} ${e.type} ${e.path}`).sort()).toEqual([
      'child sessionExpired /expiring',
      'data sessionExpired /expiring',
      'data sessionExpired /not-yet',
    ]);
    await zk.close();
    await fixture.admin.delete('/expiring');
  });

  it('with autoRecreateSession a new session follows an expiry', async () => {
    const zk = await connect({ connectString: fixture.server.connectString, autoRecreateSession: true });
    const oldId = zk.sessionId;
    const reconnected = nextState(zk, 'reconnected');
    const thief = await connect({
      connectString: fixture.server.connectString,
      session: { id: zk.sessionId, password: zk.sessionPassword },
    });
    await thief.close();
    await reconnected;
    expect(zk.sessionId).not.toBe(oldId);
    expect(await zk.exists('/')).not.toBeNull();
    await zk.close();
  });
});

describe('connection loss and reconnect', () => {
  it('rejects pending calls with ConnectionLoss, reconnects to the same session, restores watches', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 8000 });
    const session = zk.sessionId;
    await fixture.admin.create('/restore', 'v0');
    await fixture.admin.create('/restore-missing-parent');
    const dataEvents: WatchEvent[] = [];
    const existEvents: WatchEvent[] = [];
    const childEvents: WatchEvent[] = [];
    await zk.getData('/restore', { watch: (e) => dataEvents.push(e) });
    await zk.exists('/restore-new', { watch: (e) => existEvents.push(e) });
    await zk.getChildren('/restore-missing-parent', { watch: (e) => childEvents.push(e) });
    const states = collectStates(zk, 2);

    fixture.proxy.pause();
    const pending = zk.getData('/restore');
    // Changes made while this client cannot hear: the restored watches must fire for them.
    await fixture.admin.setData('/restore', 'v1');
    await fixture.admin.create('/restore-new');
    await fixture.admin.create('/restore-missing-parent/kid');
    fixture.proxy.cut();
    fixture.proxy.resume();
    await expect(pending).rejects.toBeInstanceOf(ConnectionLossError);

    expect(await states).toEqual(['suspended', 'reconnected']);
    expect(zk.sessionId).toBe(session);
    await zk.sync('/');
    await new Promise((r) => setImmediate(r));
    expect(dataEvents).toMatchObject([{ type: 'dataChanged', path: '/restore' }]);
    expect(existEvents).toMatchObject([{ type: 'created', path: '/restore-new' }]);
    expect(childEvents).toMatchObject([{ type: 'childrenChanged', path: '/restore-missing-parent' }]);
    expect((await zk.getData('/restore')).data.toString()).toBe('v1');
    await zk.close();
  });

  it('restores more than 128 KiB of watches in several SetWatches batches', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
    await fixture.admin.create('/many');
    const names = Array.from({ length: 1400 }, (_, i) => `${'n'.repeat(96)}${String(i).padStart(4, '0')}`);
    await Promise.all(names.map((n) => fixture.admin.create(`/many/${n}`)));
    const fired = new Set<string>();
    await Promise.all(names.map((n) => zk.getData(`/many/${n}`, { watch: (e) => fired.add(e.path) })));
    const persistent: WatchEvent[] = [];
    await zk.addWatch('/many', 'persistent', (e) => persistent.push(e));
    const back = nextState(zk, 'reconnected');
    fixture.proxy.pause();
    await Promise.all(names.map((n) => fixture.admin.setData(`/many/${n}`, 'changed')));
    fixture.proxy.cut();
    fixture.proxy.resume();
    await back;
    await zk.sync('/');
    await new Promise((r) => setImmediate(r));
    expect(fired.size).toBe(names.length);
    // The persistent watch (sent in a SetWatches2 batch) is back too: it gets no catch-up, but new events.
    await fixture.admin.create('/many/new');
    await zk.sync('/');
    await new Promise((r) => setImmediate(r));
    expect(persistent).toMatchObject([{ type: 'childrenChanged', path: '/many' }]);
    await zk.close();
  });

  it('survives a server restart with its session and a persistent watch', async () => {
    const zk = await connect({ connectString: fixture.server.connectString, sessionTimeoutMs: 10_000 });
    const session = zk.sessionId;
    await fixture.admin.close();
    await zk.create('/restart', 'a');
    await zk.create('/restart-eph', null, { mode: 'ephemeral' });
    const events: WatchEvent[] = [];
    await zk.addWatch('/restart', 'persistent', (e) => events.push(e));
    const reconnected = nextState(zk, 'reconnected');
    await fixture.server.restart();
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/restart-eph')).not.toBeNull();
    await zk.setData('/restart', 'b');
    await zk.setData('/restart', 'c');
    expect(events).toMatchObject([
      { type: 'dataChanged', path: '/restart' },
      { type: 'dataChanged', path: '/restart' },
    ]);
    fixture.admin = await connect({ connectString: fixture.server.connectString });
    await zk.close();
  });

  it('abandons a connection attempt that gets no ConnectResponse, and tries again', async () => {
    fixture.proxy.drop(true);
    const zk = createClient({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    await expect(zk.connected({ timeoutMs: 1500 })).rejects.toBeInstanceOf(OperationTimeoutError);
    const attempts = fixture.proxy.totalConnections;
    fixture.proxy.drop(false);
    await zk.connected();
    expect(fixture.proxy.totalConnections).toBeGreaterThan(attempts);
    await zk.close();
  });

  it('times out a call whose reply is held, then stays in step once the reply comes', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
    await zk.create('/held', 'x');
    fixture.proxy.pause();
    await expect(zk.getData('/held', { timeoutMs: 100 })).rejects.toBeInstanceOf(OperationTimeoutError);
    const next = zk.getData('/held');
    fixture.proxy.resume();
    expect((await next).data.toString()).toBe('x');
    expect(zk.state).toBe('connected');
    await zk.delete('/held');
    await zk.close();
  });

  it('survives a connection factory that throws, and keeps trying', async () => {
    let calls = 0;
    const zk = createClient({
      connectString: fixture.server.connectString,
      connectionFactory: (host, port) => {
        if (++calls === 1) throw new Error('no socket for you');
        return net.connect({ host, port });
      },
    });
    await zk.connected();
    expect(calls).toBeGreaterThan(1);
    await zk.close();
  });

  it('goes round the host list past a dead host', async () => {
    const zk = await connect({ connectString: `127.0.0.1:1,${fixture.server.connectString},127.0.0.1:2` });
    expect(await zk.exists('/')).not.toBeNull();
    await zk.close();
  });

  it('declares a silent server dead after the read timeout and moves on', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    const session = zk.sessionId;
    const suspended = nextState(zk, 'suspended');
    // Only the server's bytes are swallowed: it keeps hearing the pings, so the session stays alive on the
    // server while the client hears nothing.
    fixture.proxy.corrupt('toClient', () => Buffer.alloc(0));
    await suspended;
    const reconnected = nextState(zk, 'reconnected');
    fixture.proxy.clearCorruption();
    await reconnected;
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/')).not.toBeNull();
    await zk.close();
  });
});
