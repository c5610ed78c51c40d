/**
 * Read-only mode against a real partitioned ensemble (server-setup.md §3): a client that allows it connects to
 * the member left alone, in read-only state, and reads; it keeps probing the other hosts with `isro` and moves
 * to a read-write server as soon as one answers; when the quorum comes back it ends up read-write there.
 *
 * The read-write server of the probing test is a standalone server started on a copy of a partitioned
 * member's data: it holds the same tree and zxids, so it takes a client that has read from the read-only
 * member (a fresh server would refuse it for being behind the client's zxid, wire-protocol.md §2.5).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Ensemble,
  type FaultProxy,
  nextState,
  startEnsemble,
  startFaultProxy,
  startZooKeeper,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionState,
  connect,
  createClient,
  NotReadOnlyError,
  type WatchEvent,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors, recordStates, until } from './faults-helpers.js';

failOnProcessErrors();

let ensemble: Ensemble;
/** A separate read-write server, kept behind a refusing proxy until the probing test lets it answer. */
let readWrite: ZooKeeperServer;
let readWriteProxy: FaultProxy;

beforeAll(async () => {
  [ensemble, readWrite] = await Promise.all([
    startEnsemble({
      size: 3,
      tickTime: 1000,
      jvmFlags: ['-Dreadonlymode.enabled=true'],
      config: { localSessionsEnabled: true, localSessionsUpgradingEnabled: true },
    }),
    startZooKeeper({ tickTime: 1000 }),
  ]);
  readWriteProxy = await startFaultProxy({ host: readWrite.host, port: readWrite.port });
  readWriteProxy.refuse(true);
  const admin = await connect({ connectString: ensemble.connectString });
  await admin.create('/ro-data', 'kept');
  await admin.close();
  // Partition: the first member is left alone and turns read-only after its grace period.
  await Promise.all([ensemble.kill(1), ensemble.kill(2), readWrite.stop()]);
  const copied = join(readWrite.dataDir, 'version-2');
  rmSync(copied, { recursive: true, force: true });
  cpSync(join(ensemble.members[1]!.dataDir, 'version-2'), copied, { recursive: true });
  await Promise.all([
    readWrite.start(),
    until(async () => (await ensemble.members[0]!.mode()) === 'read-only'),
  ]);
});
afterAll(async () => {
  await readWriteProxy?.close();
  await readWrite?.[Symbol.asyncDispose]();
  await ensemble?.[Symbol.asyncDispose]();
});

/** A client that accepts read-only servers, with its states recorded from the start. */
async function readOnlyClient(
  connectString: string,
): Promise<{ zk: ZooKeeperClient; states: ConnectionState[] }> {
  const zk = createClient({ connectString, canBeReadOnly: true, sessionTimeoutMs: 6000 });
  const states = recordStates(zk);
  await zk.connected();
  return { zk, states };
}

describe('read-only mode', () => {
  it('a client without canBeReadOnly is not served by the partitioned member', async () => {
    const zk = createClient({ connectString: ensemble.members[0]!.connectString, sessionTimeoutMs: 6000 });
    await expect(zk.connected({ timeoutMs: 1500 })).rejects.toMatchObject({ code: 'OPERATIONTIMEOUT' });
    expect(zk.state).toBe('connecting');
    await zk.close();
  });

  it('serves reads in read-only state, probes with isro and moves to a read-write server once one answers', async () => {
    const { zk, states } = await readOnlyClient(
      `${ensemble.members[0]!.connectString},${readWriteProxy.connectString}`,
    );
    expect(zk.state).toBe('read-only');
    expect(states).toEqual(['read-only']);
    expect((await zk.getData('/ro-data')).data.toString()).toBe('kept');
    await expect(zk.create('/ro-write')).rejects.toBeInstanceOf(NotReadOnlyError);
    // A watch armed on the read-only server goes along to the read-write one.
    const events: WatchEvent[] = [];
    expect(await zk.exists('/ro-moved', { watch: (e) => events.push(e) })).toBeNull();
    const refusedSoFar = readWriteProxy.totalConnections;

    const moved = nextState(zk, 'reconnected');
    readWriteProxy.refuse(false);
    await moved;
    expect(states).toEqual(['read-only', 'suspended', 'reconnected']);
    expect(zk.state).toBe('connected');
    expect(readWriteProxy.totalConnections).toBeGreaterThan(refusedSoFar);
    expect((await zk.getData('/ro-data')).data.toString()).toBe('kept');
    expect(await zk.create('/ro-moved', 'written')).toBe('/ro-moved');
    await until(() => events.length > 0);
    expect(events).toMatchObject([{ type: 'created', path: '/ro-moved' }]);
    await zk.close();
  });

  it('ends up read-write on the ensemble when the quorum comes back', async () => {
    const { zk, states } = await readOnlyClient(ensemble.connectString);
    expect(zk.state).toBe('read-only');
    expect((await zk.getData('/ro-data')).data.toString()).toBe('kept');
    const back = nextState(zk, 'reconnected');
    await Promise.all([ensemble.start(1), ensemble.start(2)]);
    await ensemble.waitForQuorum();
    await back;
    expect(states[0]).toBe('read-only');
    expect(states.at(-1)).toBe('reconnected');
    await until(() => zk.state === 'connected');
    expect(await zk.create('/ro-after', null, { mode: 'ephemeral' })).toBe('/ro-after');
    await zk.close();
  });
});
