/**
 * SetPartitioner among Node members on a real server: the set divided with one owner per item (kazoo's split
 * and layout), divided again when a member leaves, the failure state on a lost session, and bad arguments.
 */
import { eventually, startFaultProxy } from '@zkwire/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidRecipeArgumentError } from '../src/internal-common/recipe-errors.js';
import { kazooPartition } from '../src/partitioner/partition-function.js';
import { PartitionFailedError } from '../src/partitioner/partitioner-options.js';
import { SetPartitioner } from '../src/partitioner/set-partitioner.js';
import { childrenOf, closeAll, openClient, type TestClient, useRealServer } from './helpers.js';
import {
  expectOnePartitioning,
  isOnePartitioning,
  nodeShare,
  releaseWhenAsked,
} from './partitioner-helpers.js';

const ITEMS = ['q-a', 'q-b', 'q-c', 'q-d', 'q-e', 'q-f', 'q-g'];
const TIMING = { timeBoundaryMs: 300, maxReactionTimeMs: 200 };

describe('SetPartitioner', () => {
  // tickTime 500 lets the server grant a 2 s session, for the session-loss test.
  const zk = useRealServer({ clients: 3, server: { tickTime: 500 } });
  const extraClients: TestClient[] = [];
  afterAll(() => closeAll(extraClients));

  it('divides the set among three members, kazoo-style, with one lock holder per item', async () => {
    const path = '/partition/three';
    const members = zk.clients.map(
      (client, i) => new SetPartitioner(client, path, { items: ITEMS, identifier: `worker-${i}`, ...TIMING }),
    );
    for (const member of members) releaseWhenAsked(member);
    await Promise.all(members.map((member) => member.start()));
    const shares = () => members.map((member, i) => nodeShare(member, zk.client(i)));
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, shares()));
    await expectOnePartitioning(zk.client(0), path, ITEMS, shares());

    const ids = members.map((member) => member.identifier);
    members.forEach((member) => {
      expect(member.items).toEqual(kazooPartition(member.identifier, ids, ITEMS));
    });
    const party = await childrenOf(zk.client(0), `${path}/party`);
    expect(party.map((name) => name.replace(/^[0-9a-f]{32}-/, '')).sort()).toEqual(ids);
    for (const item of ITEMS) {
      const contenders = await childrenOf(zk.client(0), `${path}/locks/${item}`);
      expect(contenders).toHaveLength(1);
      expect(contenders[0]).toMatch(/^[0-9a-f]{32}__lock__\d{10}$/);
    }

    // One member finishes: the others are asked to release, and divide the whole set between them.
    await members[2]?.finish();
    expect(members[2]?.state).toBe('failure');
    expect(members[2]?.failure?.reason).toBe('finished');
    expect(members[2]?.items).toEqual([]);
    const two = () => members.slice(0, 2).map((member, i) => nodeShare(member, zk.client(i)));
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, two()));
    expect(await childrenOf(zk.client(0), `${path}/party`)).toHaveLength(2);
    await Promise.all(members.slice(0, 2).map((member) => member.finish()));
    expect(await childrenOf(zk.client(0), `${path}/party`)).toEqual([]);
    for (const item of ITEMS) expect(await childrenOf(zk.client(0), `${path}/locks/${item}`)).toEqual([]);
  });

  it('goes to its failure state, and says so, when its session is lost', async () => {
    const path = '/partition/session';
    const proxy = await startFaultProxy({ host: zk.server.host, port: zk.server.port });
    const isolated = await openClient(proxy.connectString, 2_000);
    extraClients.push(isolated);
    const doomed = new SetPartitioner(isolated, path, { items: ITEMS, identifier: 'doomed', ...TIMING });
    const survivor = new SetPartitioner(zk.client(0), path, {
      items: ITEMS,
      identifier: 'survivor',
      ...TIMING,
    });
    releaseWhenAsked(survivor);
    const states: string[] = [];
    doomed.on('state', (state) => states.push(state));
    await doomed.start();
    await survivor.start();
    const both = () => [nodeShare(doomed, isolated), nodeShare(survivor, zk.client(0))];
    await eventually(() => isOnePartitioning(zk.client(0), path, ITEMS, both()));

    const waiting = doomed.waitForAcquire({ timeoutMs: 120_000 });
    proxy.drop(true); // the doomed member hears nothing more; the server expires its session
    await eventually(
      () => isOnePartitioning(zk.client(0), path, ITEMS, [nodeShare(survivor, zk.client(0))]),
      { timeoutMs: 50_000 },
    );
    proxy.drop(false);
    await eventually(() => doomed.state === 'failure', { timeoutMs: 50_000 });
    expect(doomed.failure).toBeInstanceOf(PartitionFailedError);
    expect(doomed.failure?.reason).toBe('session-lost');
    expect(doomed.failure?.code).toBe('PARTITION_FAILED');
    expect(states.at(-1)).toBe('failure');
    expect(states).toContain('release'); // the suspended connection asked for a release first
    // waitForAcquire was already satisfied (acquired) when called, so it resolved; a new one rejects.
    expect(await waiting).toBe(true);
    await expect(doomed.waitForAcquire()).rejects.toBeInstanceOf(PartitionFailedError);
    expect(doomed.items).toEqual([]);
    await survivor.finish();
    await proxy.close();
  });

  it('refuses bad arguments before anything is sent', () => {
    const client = zk.client(0);
    const bad: [options: unknown, argument: string][] = [
      [{ items: 'abc' }, 'items'],
      [{ items: ['ok', 'a/b'] }, 'items[1]'],
      [{ items: [''] }, 'items[0]'],
      [{ items: ['ok'], identifier: 'x/y' }, 'identifier'],
      [{ items: ['ok'], timeBoundaryMs: -1 }, 'timeBoundaryMs'],
      [{ items: ['ok'], maxReactionTimeMs: 0 }, 'maxReactionTimeMs'],
      [{ items: ['ok'], partitionFunction: 'mine' }, 'partitionFunction'],
      [undefined, 'options'],
    ];
    for (const [options, argument] of bad) {
      const make = () => new SetPartitioner(client, '/partition/bad', options as never);
      expect(make).toThrow(InvalidRecipeArgumentError);
      expect(make).toThrow(expect.objectContaining({ argument }));
    }
    expect(() => new SetPartitioner(client, 'relative', { items: ['ok'] })).toThrow(
      InvalidRecipeArgumentError,
    );
  });
});
