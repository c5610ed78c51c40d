/**
 * What a hostile-server run found (issue 14 §5), one test per defect, each against the scripted fake server of
 * @zkwire/testing: these are replies no real server sends, so only a fake can send them. Correctness against
 * real servers is proven elsewhere (and the zxid defect also in hostile-zxid.test.ts, on a real server).
 */
import {
  connectResponseFrame,
  type HostilePeer,
  type HostileRequest,
  type HostileServer,
  honestReply,
  nextState,
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
import { failOnProcessErrors } from './faults-helpers.js';
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
    expect(events).toMatchObject([{ type: 'created', path: '/' }]);
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

/** An int32 length prefix alone. */
function lengthOnly(length: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(length | 0);
  return bytes;
}

describe('each misbehaviour of issue 14 §4: the call settles, the process lives, the client recovers', () => {
  type Misbehave = (request: HostileRequest, peer: HostilePeer) => void;
  const fatal: [string, Misbehave][] = [
    ['a 2 GiB length', (_r, peer) => peer.send(lengthOnly(0x80000000))],
    ['a 2 GiB - 1 length', (_r, peer) => peer.send(lengthOnly(0x7fffffff))],
    ['a negative length', (_r, peer) => peer.send(lengthOnly(-1))],
    ['a reply for an unknown xid', (r, peer) => peer.reply(r.xid + 1000, { err: -101 })],
    ['a truncated record (err 0, half a Stat)', (r, peer) => peer.reply(r.xid, { body: Buffer.alloc(40) })],
    [
      'a truncated frame, then the end',
      (r, peer) => {
        peer.send(replyFrame(r.xid, { err: -101 }).subarray(0, 10));
        peer.end();
      },
    ],
    ['garbage', (_r, peer) => peer.send(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'))],
  ];

  it.each(fatal)(
    '%s: the call fails ConnectionLoss, the connection ends, the session carries on',
    async (_name, misbehave) => {
      let hostile = true;
      server = await startHostileServer({
        onRequest: collect((request, peer) => {
          if (hostile && request.type === 3) {
            hostile = false;
            misbehave(request, peer);
          } else honestReply(request, peer);
        }),
      });
      client = await connect({ connectString: server.connectString });
      const session = client.sessionId;
      await expect(client.exists('/bad')).rejects.toBeInstanceOf(ConnectionLossError);
      // The next connection is honest: the same session, and calls work.
      expect(await client.exists('/after')).toBeNull();
      expect(client.sessionId).toBe(session);
      expect(server.totalConnections).toBe(2);
    },
  );

  it('bad UTF-8 in a child name and in a notification path: decoded with replacement characters, no crash', async () => {
    const badName = Buffer.from([0x61, 0xc3, 0x28, 0xff]);
    server = await startHostileServer({
      onRequest: collect((request, peer) => {
        if (request.type === 12) {
          // getChildren asks getChildren2: int count, one ustring, a Stat (68 bytes, zeros); and a notification
          // whose path is bad UTF-8 before it.
          const body = Buffer.alloc(8 + badName.length + 68);
          body.writeInt32BE(1, 0);
          body.writeInt32BE(badName.length, 4);
          badName.copy(body, 8);
          peer.send(notificationFrame(1, Buffer.concat([Buffer.from('/'), badName])));
          peer.reply(request.xid, { body });
        } else honestReply(request, peer);
      }),
    });
    client = await connect({ connectString: server.connectString });
    const [name] = await client.getChildren('/');
    expect(name).toBe(badName.toString('utf8'));
    expect(name).toContain('\ufffd');
    expect(server.totalConnections).toBe(1);
  });

  it('a ConnectResponse with timeout 0 or below: connect() rejects SessionExpired, nothing is left running', async () => {
    for (const timeOut of [0, -5]) {
      server = await startHostileServer({ onConnect: () => ({ timeOut }) });
      await expect(connect({ connectString: server.connectString })).rejects.toMatchObject({
        code: 'SESSIONEXPIRED',
      });
      await server.close();
      server = undefined;
    }
  });

  it('a ConnectResponse and a reply that arrive a byte at a time are read whole', async () => {
    server = await startHostileServer({
      onConnect: (request, peer) => {
        peer.dribble(connectResponseFrame(request.timeOut, 0x42n, Buffer.alloc(16, 1)), 5);
        return 'silent';
      },
      onRequest: collect((request, peer) => peer.dribble(replyFrame(request.xid, { err: -101 }), 5)),
    });
    client = await connect({ connectString: server.connectString });
    expect(client.sessionId).toBe(0x42n);
    expect(await client.exists('/slowly')).toBeNull();
  });

  it('a server that resets every connection after the handshake: attempts stay within the backoff', async () => {
    server = await startHostileServer({
      onConnect: (_request, peer) => {
        setTimeout(() => peer.destroy(), 10);
        return undefined;
      },
    });
    client = createClient({ connectString: server.connectString, sessionTimeoutMs: 30_000 });
    const started = Date.now();
    await sleep(4000);
    const elapsed = Date.now() - started;
    // One host: a full round every attempt, so at least 1 s between attempts (Java's spin delay).
    expect(server.totalConnections).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
    expect(server.totalConnections).toBeGreaterThanOrEqual(2);
  });
});
