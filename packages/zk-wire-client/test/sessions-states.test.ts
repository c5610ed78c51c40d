/**
 * The state stream and expiry against a real server behind the fault proxy: one `suspended` however many
 * attempts fail, expiry told by the server (timeout 0) and found by the client itself (a black hole longer
 * than the session timeout), calls that cannot hang when no server ever answers, and an auto-recreated session.
 */
import { nextState } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { ConnectionLossError, connect, createClient, SessionExpiredError } from '../src/index.js';
import { failOnProcessErrors, frameTap, recordStates, until, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();

const fixture = useProxiedServer({ tickTime: 1000 });

describe('connection states', () => {
  it('reports one suspended however many attempts fail, then reconnected', async () => {
    const tap = frameTap();
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 8000,
      connectionFactory: tap.factory,
    });
    const states = recordStates(zk);
    fixture.proxy.refuse(true);
    fixture.proxy.cut();
    await until(() => tap.connections >= 4);
    const back = nextState(zk, 'reconnected');
    fixture.proxy.refuse(false);
    await back;
    expect(states).toEqual(['suspended', 'reconnected']);
    await zk.close();
  });

  it('calls waiting for a first session fail ConnectionLoss after the session timeout instead of hanging', async () => {
    fixture.proxy.refuse(true);
    const zk = createClient({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 2000 });
    const states = recordStates(zk);
    const waiting = zk.exists('/');
    await expect(waiting).rejects.toBeInstanceOf(ConnectionLossError);
    fixture.proxy.refuse(false);
    // The client kept connecting: it is there as soon as the server is reachable.
    await zk.connected();
    expect(await zk.exists('/')).not.toBeNull();
    expect(states).toEqual(['connected']);
    await zk.close();
  });
});

describe('reconnecting', () => {
  it('presents the session id, its password and the last zxid seen on the next connection', async () => {
    const tap = frameTap();
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 6000,
      connectionFactory: tap.factory,
    });
    const first = tap.on(0)[0]!.connect!;
    expect(first.sessionId).toBe(0n);
    expect(first.lastZxidSeen).toBe(0n);
    expect(first.passwd).toEqual(Buffer.alloc(16));
    await zk.create('/zxid', 'a');
    // The reply header of a write carries its own zxid, which the Stat shows as mzxid.
    const { mzxid } = await zk.setData('/zxid', 'b');
    const back = nextState(zk, 'reconnected');
    fixture.proxy.cut();
    await back;
    const again = tap.on(tap.connections - 1)[0]!.connect!;
    expect(again.sessionId).toBe(zk.sessionId);
    expect(again.passwd).toEqual(Buffer.from(zk.sessionPassword));
    expect(again.lastZxidSeen).toBe(mzxid);
    expect(again.timeOut).toBe(6000);
    await zk.close();
  });
});

describe('expiry', () => {
  it('told by the server (timeout 0) after a partition: lost, then a new session with autoRecreateSession', async () => {
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 6000,
      autoRecreateSession: true,
    });
    const oldSession = zk.sessionId;
    await zk.create('/expired-eph', null, { mode: 'ephemeral' });
    const states = recordStates(zk);
    fixture.proxy.pause();
    // Someone else ends the session while this client cannot hear.
    const thief = await connect({
      connectString: fixture.server.connectString,
      session: { id: oldSession, password: zk.sessionPassword },
    });
    await thief.close();
    const back = nextState(zk, 'reconnected');
    fixture.proxy.cut();
    fixture.proxy.resume();
    await back;
    expect(states).toEqual(['suspended', 'lost', 'reconnected']);
    expect(zk.sessionId).not.toBe(oldSession);
    expect(await fixture.admin.exists('/expired-eph')).toBeNull();
    expect(await zk.create('/expired-eph', null, { mode: 'ephemeral' })).toBe('/expired-eph');
    await zk.close();
  });

  it('found by the client when no server answers for longer than the session timeout', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    const states = recordStates(zk);
    const lost = nextState(zk, 'lost');
    // A black hole: connections open, nothing ever comes back.
    fixture.proxy.drop(true);
    const pending = zk.getData('/');
    await expect(pending).rejects.toBeInstanceOf(ConnectionLossError);
    await lost;
    expect(states).toEqual(['suspended', 'lost']);
    expect(zk.state).toBe('expired');
    await expect(zk.getData('/')).rejects.toBeInstanceOf(SessionExpiredError);
    fixture.proxy.drop(false);
    // Servers or not, the handle stays expired until the user makes a new session.
    await expect(zk.exists('/')).rejects.toBeInstanceOf(SessionExpiredError);
    await zk.close();
    const fresh = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    expect(await fresh.exists('/')).not.toBeNull();
    await fresh.close();
  });
});
