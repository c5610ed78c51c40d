/**
 * Fenced writes on a real 3-server ensemble: the check is decided where writes are ordered, whichever member
 * a client talks to. A stale holder on one follower (hearing nothing, through the fault proxy) is refused
 * after its node was deleted and the lock passed to a holder on another member; and a holder whose session
 * survives the leader's death keeps writing through the new leader, since its node is still there.
 */
import { ensembleFixture, eventually, type FaultProxy, startFaultProxy } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoldLostError } from '../src/internal-common/hold-monitor.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { openClient, type TestClient } from './helpers.js';

const fixture = ensembleFixture({ size: 3 });

beforeAll(fixture.start, 120_000);
afterAll(fixture.stop);

async function clientOn(
  member: number,
  viaProxy = false,
): Promise<{ client: TestClient; proxy?: FaultProxy }> {
  const server = fixture.ensemble.members[member];
  if (server === undefined) throw new Error(`no member ${member}`);
  if (!viaProxy) {
    const client = await openClient(server.connectString);
    fixture.track(client);
    return { client };
  }
  const proxy = await startFaultProxy({ host: server.host, port: server.port });
  fixture.track(proxy);
  const client = await openClient(proxy.connectString);
  fixture.track(client);
  return { client, proxy };
}

const text = new TextDecoder();

describe('fenced writes on an ensemble', () => {
  it('refuses a stale holder on a follower while the holder on another member writes', async () => {
    const leader = await fixture.ensemble.leader();
    const follower = (leader + 1) % 3;
    const other = (leader + 2) % 3;
    const { client: staleClient, proxy } = await clientOn(follower, true);
    const { client: nextClient } = await clientOn(leader);
    const { client: admin } = await clientOn(other);
    const target = '/fenced-ensemble/resource';
    await admin.create(target, 'initial', { createParents: true });

    const stale = new InterProcessMutex(staleClient, '/fenced-ensemble/lock');
    expect(await stale.acquire()).toBe(true);
    const writer = stale.fenced();
    await writer.setData(target, 'first holder');

    proxy?.pause('toClient');
    await admin.delete(stale.lockNodePath as string);
    const next = new InterProcessMutex(nextClient, '/fenced-ensemble/lock');
    expect(await next.acquire({ timeoutMs: 30_000 })).toBe(true);
    await next.fenced().setData(target, 'next holder');
    const late = writer.setData(target, 'stale holder');
    proxy?.resume();
    const refusal = await late.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HoldLostError);
    expect((refusal as HoldLostError).cause).toMatchObject({ failedIndex: 0, code: 'NONODE' });
    // Read from every member: none has the stale write.
    for (const member of [0, 1, 2]) {
      const { client } = await clientOn(member);
      await client.sync(target);
      expect(text.decode((await client.getData(target)).data)).toBe('next holder');
    }
    await next.release();
    await stale.release();
  });

  it('keeps writing through a new leader while its session and node survive', async () => {
    const leader = await fixture.ensemble.leader();
    const follower = (leader + 1) % 3;
    const { client } = await clientOn(follower);
    const target = '/fenced-ensemble/survivor';
    await client.create(target, 'initial', { createParents: true });
    // lostOn 'lost': the suspension during the election does not end the writer; the server's check guards.
    const holder = new InterProcessMutex(client, '/fenced-ensemble/survivor-lock', { lostOn: 'lost' });
    expect(await holder.acquire()).toBe(true);
    const writer = holder.fenced();
    await writer.setData(target, 'before');

    await fixture.ensemble.kill(leader);
    await fixture.ensemble.waitForQuorum();
    await eventually(() => client.state === 'connected', { timeoutMs: 60_000 });
    await writer.setData(target, 'after');
    expect(text.decode((await client.getData(target)).data)).toBe('after');
    await holder.release();
    await fixture.ensemble.start(leader);
    await fixture.ensemble.waitForQuorum();
  });
});
