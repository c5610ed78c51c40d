/**
 * What keeps a session alive and how long it may be silent, against a real server with explicit bounds
 * (minSessionTimeout 1500, maxSessionTimeout 6000): idle pings, the negotiated timeout, and the per-host
 * connect timeout that moves a client past a host that accepts but never answers.
 */
import { type FaultProxy, startFaultProxy, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ZooKeeperClient } from '../src/index.js';
import { failOnProcessErrors, frameTap, recordStates, until } from './faults-helpers.js';

failOnProcessErrors();

const MIN_SESSION_TIMEOUT = 1500;
const MAX_SESSION_TIMEOUT = 6000;
/** Ping: xid -2, opcode 11 (wire-protocol.md §7.2). */
const PING_XID = -2;
const PING_OPCODE = 11;

let server: ZooKeeperServer;
let admin: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper({
    tickTime: 500,
    config: { minSessionTimeout: MIN_SESSION_TIMEOUT, maxSessionTimeout: MAX_SESSION_TIMEOUT },
  });
  admin = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await admin?.close();
  await server?.[Symbol.asyncDispose]();
});

describe('session timeout negotiation', () => {
  it("gets the server's minimum when asking for less, and its maximum when asking for more", async () => {
    await using short = await connect({ connectString: server.connectString, sessionTimeoutMs: 200 });
    expect(short.negotiatedTimeoutMs).toBe(MIN_SESSION_TIMEOUT);
    await using long = await connect({ connectString: server.connectString, sessionTimeoutMs: 60_000 });
    expect(long.negotiatedTimeoutMs).toBe(MAX_SESSION_TIMEOUT);
    await using within = await connect({ connectString: server.connectString, sessionTimeoutMs: 4000 });
    expect(within.negotiatedTimeoutMs).toBe(4000);
  });
});

describe('idle pings', () => {
  it('keep an idle client connected and its session alive on the server', async () => {
    const tap = frameTap();
    await using zk = await connect({
      connectString: server.connectString,
      sessionTimeoutMs: MIN_SESSION_TIMEOUT,
      connectionFactory: tap.factory,
    });
    const states = recordStates(zk);
    const ephemeral = await zk.create('/idle-', null, { mode: 'ephemeral-sequential' });
    const readTimeoutMs = Math.floor((zk.negotiatedTimeoutMs * 2) / 3);
    const pings = () => tap.frames.filter((f) => f.xid === PING_XID && f.opcode === PING_OPCODE).length;
    // Idle (no calls) for more than two read timeouts and more than the session timeout itself: without
    // pings the client would suspend and the server would expire the session.
    await new Promise((r) => setTimeout(r, Math.max(2 * readTimeoutMs, zk.negotiatedTimeoutMs) + 500));
    expect(states).toEqual([]);
    expect(zk.state).toBe('connected');
    expect(pings()).toBeGreaterThanOrEqual(2);
    expect(tap.connections).toBe(1);
    // The server still lists the connection with this session, and its ephemeral node is still there.
    expect(await server.fourLetterWord('cons')).toContain(`sid=0x${zk.sessionId.toString(16)}`);
    expect(await admin.exists(ephemeral)).not.toBeNull();
  });
});

describe('per-host connect timeout', () => {
  let holes: FaultProxy[] = [];
  afterAll(async () => {
    await Promise.all(holes.map((p) => p.close()));
  });

  it('moves past a host that accepts the connection but never answers, to the good host', async () => {
    holes = [
      await startFaultProxy({ host: server.host, port: server.port }),
      await startFaultProxy({ host: server.host, port: server.port }),
    ];
    for (const p of holes) p.pause();
    const connectString = holes.map((p) => `${p.host}:${p.port}`).join(',');
    const connecting = connect({ connectString, sessionTimeoutMs: 4000 });
    // The host list is shuffled: whichever host was tried first stays a black hole, the other becomes good.
    await until(() => holes.some((p) => p.totalConnections > 0));
    const blackHole = holes.find((p) => p.totalConnections > 0)!;
    const good = holes.find((p) => p !== blackHole)!;
    good.resume();
    await using zk = await connecting;
    expect(await zk.exists('/')).not.toBeNull();
    expect(good.connectionCount).toBe(1);
    // The black hole never answered (it is still paused): the client gave up on it by itself.
    expect(blackHole.totalConnections).toBeGreaterThanOrEqual(1);
  });
});
