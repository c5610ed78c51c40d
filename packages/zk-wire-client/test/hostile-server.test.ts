/**
 * What a hostile-server run found (issue 14 §5), one test per defect, each against the scripted fake server of
 * @zkwire/testing: these are replies no real server sends, so only a fake can send them. Correctness against
 * real servers is proven elsewhere (and the zxid defect also in hostile-zxid.test.ts, on a real server).
 */
import {
  type HostilePeer,
  type HostileRequest,
  type HostileServer,
  honestReply,
  notificationFrame,
  replyFrame,
  startHostileServer,
} from '@zkwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionLossError,
  connect,
  createClient,
  OperationTimeoutError,
  type WatchEvent,
  type ZooKeeperClient,
  ZooKeeperError,
} from '../src/index.js';
import { failOnProcessErrors, nextState } from './faults-helpers.js';
import { pendingAfter, settlesWithin, sleep, Tracked } from './hostile-helpers.js';

failOnProcessErrors();

const OP_PING = 11;
const OP_CLOSE_SESSION = -11;

let server: HostileServer | undefined;
let client: ZooKeeperClient | undefined;
afterEach(async () => {
  // A client left hanging by a failed test is abandoned, not awaited: its close may be what hangs.
  void client?.close();
  client = undefined;
  await server?.close();
  server = undefined;
});

/** The requests of a script other than pings (answered honestly). */
function collect(onRequest: (request: HostileRequest, peer: HostilePeer) => void) {
  return (request: HostileRequest, peer: HostilePeer) => {
    if (request.type === OP_PING) honestReply(request, peer);
    else onRequest(request, peer);
  };
}

describe('a hostile server (issue 14 §5)', () => {
  it('five whole replies then a bad length in one read: the five calls get their answers, then the connection ends', async () => {
    const seen: HostileRequest[] = [];
    server = await startHostileServer({
      onRequest: collect((request, peer) => {
        seen.push(request);
        if (seen.length < 5) return;
        const bad = Buffer.alloc(4);
        bad.writeInt32BE(-1);
        peer.send(Buffer.concat([...seen.map((r) => replyFrame(r.xid, { err: -101 })), bad]));
      }),
    });
    client = await connect({ connectString: server.connectString });
    const calls = [1, 2, 3, 4, 5].map((i) => client!.exists(`/n${i}`));
    // exists of a missing node resolves null: each call got the server's answer, not ConnectionLoss.
    expect(await Promise.all(calls)).toEqual([null, null, null, null, null]);
    // Then the connection ended (the bad length) and the client connected again.
    await expect.poll(() => server!.totalConnections, { timeout: 10_000 }).toBe(2);
  });

  it('a notification with a null path is dropped as malformed, not delivered as an event on /', async () => {
    server = await startHostileServer();
    client = await connect({ connectString: server.connectString });
    const events: WatchEvent[] = [];
    expect(await client.exists('/', { watch: (event) => events.push(event) })).toBeNull();
    // dataChanged with a null path, then an honest created on '/': the one-shot watcher takes one event.
    server.peers[0]!.send(Buffer.concat([notificationFrame(3, null), notificationFrame(1, '/')]));
    await expect.poll(() => events.length).toBe(1);
    expect(events).toEqual([{ type: 'created', path: '/' }]);
    // The connection carried on: the malformed frame was dropped, not fatal.
    expect(await client.exists('/x')).toBeNull();
    expect(server.totalConnections).toBe(1);
  });

  it('timeout 0 on every reconnect under autoRecreateSession: calls made meanwhile settle', async () => {
    server = await startHostileServer({
      onConnect: (_request, peer) => (peer.index === 0 ? undefined : { timeOut: 0 }),
    });
    client = await connect({
      connectString: server.connectString,
      sessionTimeoutMs: 2000,
      autoRecreateSession: true,
    });
    const suspended = nextState(client, 'suspended');
    server.peers[0]!.destroy();
    // Calls made while the client reconnects, each reconnect answered "session gone".
    await suspended;
    const calls = Array.from({ length: 8 }, (_, i) => new Tracked(client!.exists(`/t${i}`)));
    expect(await pendingAfter(calls, 20_000)).toEqual([]);
    for (const call of calls) {
      expect(call.settlements).toBe(1);
      expect(call.outcome).toMatchObject({ ok: false });
      expect(ZooKeeperError.isInstance((call.outcome as { error: unknown }).error)).toBe(true);
    }
  });

  it('a ConnectResponse with session id 0, then the server goes away: calls settle, no session 0 is taken', async () => {
    server = await startHostileServer({ onConnect: () => ({ sessionId: 0n }) });
    client = createClient({ connectString: server.connectString, sessionTimeoutMs: 2000 });
    const states: string[] = [];
    client.on('state', (state) => states.push(state));
    // Let the handshake happen (and, before the fix, be taken), then the server goes away.
    await expect.poll(() => server!.connectRequests.length).toBeGreaterThan(0);
    await sleep(200);
    await server.close();
    server = undefined;
    await sleep(500);
    // Calls made after the server went away (before the fix: a session 0 that never expires holds them).
    const calls = Array.from({ length: 5 }, (_, i) => new Tracked(client!.exists(`/s${i}`)));
    expect(await pendingAfter(calls, 20_000)).toEqual([]);
    for (const call of calls) {
      expect(call.outcome).toMatchObject({ ok: false });
      expect((call.outcome as { error: unknown }).error).toBeInstanceOf(ConnectionLossError);
    }
    expect(states).not.toContain('connected');
  });

  it('close() does not wait out a 24-day session timeout for a closeSession reply that never comes', async () => {
    server = await startHostileServer({
      onConnect: () => ({ timeOut: 0x7fffffff }),
      onRequest: collect((request, peer) => {
        if (request.type !== OP_CLOSE_SESSION) honestReply(request, peer);
      }),
    });
    client = await connect({ connectString: server.connectString, sessionTimeoutMs: 1500 });
    expect(client.negotiatedTimeoutMs).toBe(0x7fffffff);
    // Bounded by the requested session timeout (1.5 s) by default.
    expect(await settlesWithin(client.close(), 15_000)).toBe(true);
  });

  it('closeTimeoutMs bounds the wait for the closeSession reply', async () => {
    server = await startHostileServer({
      onRequest: collect((request, peer) => {
        if (request.type !== OP_CLOSE_SESSION) honestReply(request, peer);
      }),
    });
    client = await connect({
      connectString: server.connectString,
      sessionTimeoutMs: 60_000,
      closeTimeoutMs: 300,
    });
    expect(await settlesWithin(client.close(), 15_000)).toBe(true);
    expect(client.state).toBe('closed');
  });

  it('a reply dribbled one byte every 100 ms ends the connection at the per-frame read deadline', async () => {
    const huge = Buffer.alloc(4);
    huge.writeInt32BE(1024 * 1024);
    server = await startHostileServer({
      // Read timeout: 2/3 of 1500 ms.
      onConnect: () => ({ timeOut: 1500 }),
      onRequest: collect((request, peer) => {
        if (request.type === 3) peer.dribble(Buffer.concat([huge, Buffer.alloc(1024 * 1024)]), 100);
        else honestReply(request, peer);
      }),
    });
    client = await connect({ connectString: server.connectString, sessionTimeoutMs: 1500 });
    // No timeoutMs, no requestTimeoutMs: only the frame deadline can end this call.
    const error = await client.exists('/dribbled').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionLossError);
    expect(String((error as Error).cause)).toMatch(/did not complete within 1000 ms/);
  });

  it('a server that answers pings but never a request: requestTimeoutMs bounds every call', async () => {
    server = await startHostileServer({ onRequest: collect(() => {}) });
    client = await connect({ connectString: server.connectString, requestTimeoutMs: 300 });
    await expect(client.exists('/never')).rejects.toBeInstanceOf(OperationTimeoutError);
    // Only the call gave up: the connection (kept alive by pings) is the same one.
    expect(server.totalConnections).toBe(1);
  });
});
