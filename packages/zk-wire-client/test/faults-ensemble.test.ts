/**
 * Sessions across real failures of a real 3-member ensemble: the member a client is on dies (the session
 * moves, its ephemerals and watches with it), the whole ensemble stops for less than the session timeout
 * (the session resumes) or for longer (the client reports lost; autoRecreateSession starts a new session).
 * Every test also fails on an unhandled rejection or an uncaught exception (failOnProcessErrors).
 */
import { type Ensemble, type FaultProxy, nextState, startEnsemble, startFaultProxy } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, RetryNTimes, retry, SessionExpiredError, type WatchEvent } from '../src/index.js';
import { failOnProcessErrors, recordStates, until } from './faults-helpers.js';

failOnProcessErrors();

let ensemble: Ensemble;
/** One proxy in front of each member, in member order: to see where a client is, and to keep it away. */
let proxies: FaultProxy[];

beforeAll(async () => {
  ensemble = await startEnsemble({ size: 3, tickTime: 1000 });
  proxies = await Promise.all(
    ensemble.members.map((member) => startFaultProxy({ host: member.host, port: member.port })),
  );
});
afterAll(async () => {
  await Promise.all((proxies ?? []).map((proxy) => proxy.close()));
  await ensemble?.[Symbol.asyncDispose]();
});

const viaProxies = () => proxies.map((proxy) => proxy.connectString).join(',');

describe('a member dies', () => {
  it('the same session continues on another member with its ephemerals, and a watch fires for a change made during the outage', async () => {
    const zk = await connect({ connectString: viaProxies(), sessionTimeoutMs: 6000 });
    const session = zk.sessionId;
    await zk.create('/kill-eph', null, { mode: 'ephemeral' });
    await zk.create('/kill-watched', 'before');
    const events: WatchEvent[] = [];
    await zk.getData('/kill-watched', { watch: (e) => events.push(e) });
    const states = recordStates(zk);

    const on = proxies.findIndex((proxy) => proxy.connectionCount > 0);
    expect(on).toBeGreaterThanOrEqual(0);
    const others = [0, 1, 2].filter((i) => i !== on);
    // Keep the client away from the survivors until the change below is made.
    for (const i of others) proxies[i]!.refuse(true);
    const suspended = nextState(zk, 'suspended');
    await ensemble.kill(on);
    await suspended;
    await ensemble.waitForQuorum();
    const admin = await connect({ connectString: ensemble.members[others[0]!]!.connectString });
    await retry(() => admin.setData('/kill-watched', 'during'), new RetryNTimes(20, 200));

    const back = nextState(zk, 'reconnected');
    for (const i of others) proxies[i]!.refuse(false);
    await back;
    expect(states).toEqual(['suspended', 'reconnected']);
    expect(zk.sessionId).toBe(session);
    expect((await admin.exists('/kill-eph'))?.ephemeralOwner).toBe(session);
    expect(await zk.getEphemerals()).toEqual(['/kill-eph']);
    await until(() => events.length > 0);
    expect(events).toMatchObject([{ type: 'dataChanged', path: '/kill-watched' }]);
    expect((await zk.getData('/kill-watched')).data.toString()).toBe('during');

    await admin.close();
    await zk.close();
    await ensemble.start(on);
  });
});

describe('the whole ensemble stops', () => {
  it('for less than the session timeout: the session resumes with its ephemerals', async () => {
    // The longest timeout these servers grant (20 ticks): restarting three JVMs and electing a leader takes
    // most of 15 s on a loaded machine, and client-side expiry now fires on time, not after a late attempt.
    const zk = await connect({ connectString: ensemble.connectString, sessionTimeoutMs: 20_000 });
    const session = zk.sessionId;
    await zk.create('/short-eph', null, { mode: 'ephemeral' });
    const states = recordStates(zk);
    const suspended = nextState(zk, 'suspended');
    await ensemble.stopAll();
    await suspended;
    const back = nextState(zk, 'reconnected');
    await ensemble.startAll();
    await back;
    expect(states).toEqual(['suspended', 'reconnected']);
    expect(zk.sessionId).toBe(session);
    expect(await zk.getEphemerals()).toEqual(['/short-eph']);
    await zk.close();
  });

  it('for longer: lost is reported, calls fail SessionExpired, and an auto-recreated session works', async () => {
    const plain = await connect({ connectString: ensemble.connectString, sessionTimeoutMs: 4000 });
    const auto = await connect({
      connectString: ensemble.connectString,
      sessionTimeoutMs: 4000,
      autoRecreateSession: true,
    });
    const oldAutoSession = auto.sessionId;
    await auto.create('/long-eph', null, { mode: 'ephemeral' });
    const plainStates = recordStates(plain);
    const autoStates = recordStates(auto);
    const plainLost = nextState(plain, 'lost');
    const autoLost = nextState(auto, 'lost');
    await ensemble.stopAll();
    // No server answers: each client declares its session lost once the session timeout has passed.
    await Promise.all([plainLost, autoLost]);
    expect(plain.state).toBe('expired');
    await expect(plain.getData('/')).rejects.toBeInstanceOf(SessionExpiredError);

    const autoBack = nextState(auto, 'reconnected');
    await ensemble.startAll();
    await autoBack;
    expect(autoStates).toEqual(['suspended', 'lost', 'reconnected']);
    expect(auto.sessionId).not.toBe(oldAutoSession);
    expect(await auto.create('/long-new-eph', null, { mode: 'ephemeral' })).toBe('/long-new-eph');
    expect(await auto.getEphemerals()).toEqual(['/long-new-eph']);

    // The plain client stays expired, servers or not, until the user makes a new session.
    expect(plainStates).toEqual(['suspended', 'lost']);
    await expect(plain.exists('/')).rejects.toBeInstanceOf(SessionExpiredError);
    await plain.close();
    const fresh = await connect({ connectString: ensemble.connectString, sessionTimeoutMs: 4000 });
    expect(await fresh.exists('/')).not.toBeNull();
    await fresh.close();
    await auto.close();
  });
});
