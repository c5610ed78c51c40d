/**
 * PersistentNode on a real 3-server ensemble whose leader is killed: every connection drops during the
 * re-election, the session survives, the node stays (one node, same name), data set during the outage reaches
 * it once a quorum is back, and the watch restored on the new connection still reports a deletion.
 */
import { ensembleFixture, eventually } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import { childrenOf, deferred, openClient, type TestClient } from './helpers.js';

const fixture = ensembleFixture({ size: 3 });

beforeAll(fixture.start, 120_000);
afterAll(fixture.stop);

async function ensembleClient(): Promise<TestClient> {
  const client = await openClient(fixture.ensemble.connectString);
  fixture.track(client);
  return client;
}

describe('PersistentNode through a leader failover (real ensemble)', () => {
  it('keeps one node with the newest data, and re-creates it after the failover when deleted', async () => {
    const owner = await ensembleClient();
    const observer = await ensembleClient();
    const states: string[] = [];
    owner.on('state', (state) => states.push(state));
    await using node = new PersistentNode(owner, '/failover/pn/member-', {
      mode: 'ephemeral-sequential',
      data: 'before',
      useProtection: true,
    });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 20_000 });
    const path = node.actualPath as string;
    const session = owner.sessionId;

    const leader = await fixture.ensemble.leader();
    await fixture.ensemble.kill(leader);
    await eventually(() => states.includes('suspended'), { timeoutMs: 30_000 });
    const written = node.setData('during'); // no quorum: it waits for one
    await fixture.ensemble.waitForQuorum();
    expect(await written).toBe(true);
    expect(owner.sessionId).toBe(session);
    expect(states).not.toContain('lost');
    await observer.sync(path);
    expect(new TextDecoder().decode((await observer.getData(path)).data)).toBe('during');
    expect(await childrenOf(observer, '/failover/pn')).toEqual([path.slice('/failover/pn/'.length)]);

    const recreated = deferred<string>();
    node.on('recreated', (p) => recreated.resolve(p));
    await observer.delete(path);
    expect(await recreated.promise).toBe(path);
    // The owner learnt of its create from its own server; the observer's may not have applied it yet.
    await observer.sync(path);
    expect((await observer.exists(path))?.ephemeralOwner).toBe(session);
    await fixture.ensemble.start(leader);
  });
});
