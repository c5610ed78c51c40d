/**
 * Interop with curator-x-async 5.9.0 (Maven Central) on a real server: models written by Java's
 * ModeledFramework with JacksonModelSerializer read typed here and the reverse (byte for byte where the
 * JSON is the same), versioned update conflicts both ways, a cached model seeing Java's writes, and
 * MigrationManager: sets applied from one side seen as applied by the other (the records' SHA-256 equal),
 * a changed migration refused by Java, and a Java and a Node process migrating at once applying each
 * migration once.
 */

import { InterProcessSemaphoreMutex } from '@zkwire/recipes';
import { eventually } from '@zkwire/testing';
import { op } from '@zkwire/zk-wire-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MigrationManager,
  MigrationMismatchError,
  migrationSet,
  modeled,
  modelSpec,
  operationsHash,
} from '../src/index.js';
import { useRealServer } from './helpers.js';
import { type ModeledDriver, modeledDriver } from './java-driver.js';

const real = useRealServer(2);
let java: ModeledDriver;
beforeAll(async () => {
  java = await modeledDriver(real.server.connectString);
});

const Quota = z.object({ max: z.number().int(), owner: z.string(), ratio: z.number() });
const quotas = () => modeled(real.client(0), modelSpec({ path: '/interop/quotas/{id}', schema: Quota }));
const layout = { lockPath: '/interop/locks', metaDataPath: '/interop/meta', lockMaxMs: 30_000 };

describe('ModeledFramework interop with curator-x-async', () => {
  it('reads typed what Java wrote with JacksonModelSerializer', async () => {
    expect(java.curatorVersion).toBe('5.9.0');
    await java.set('/interop/quotas/java', { max: 10, owner: 'ann', ratio: 1 });
    const { data } = await real.client(0).getData('/interop/quotas/java');
    expect(data.toString()).toBe('{"max":10,"owner":"ann","ratio":1.0}');
    expect(await quotas().resolved('java').read()).toEqual({ max: 10, owner: 'ann', ratio: 1 });
  });

  it('writes what Java reads, byte for byte the JSON Java writes for the same model', async () => {
    await quotas().resolved('node').set({ max: 7, owner: 'bob', ratio: 0.5 });
    expect(await java.read('/interop/quotas/node')).toEqual({
      model: { max: 7, owner: 'bob', ratio: 0.5 },
      version: 0,
    });
    await java.set('/interop/quotas/node-by-java', { max: 7, owner: 'bob', ratio: 0.5 });
    const ours = (await real.client(0).getData('/interop/quotas/node')).data;
    const theirs = (await real.client(0).getData('/interop/quotas/node-by-java')).data;
    expect(ours.toString()).toBe(theirs.toString());
    // A whole number in a double field: we write `2`, Jackson `2.0`; Java reads ours as the double 2.0.
    await quotas().resolved('whole').set({ max: 3, owner: 'cy', ratio: 2 });
    expect((await real.client(0).getData('/interop/quotas/whole')).data.toString()).toBe(
      '{"max":3,"owner":"cy","ratio":2}',
    );
    expect(await java.read('/interop/quotas/whole')).toEqual({
      model: { max: 3, owner: 'cy', ratio: 2 },
      version: 0,
    });
  });

  it('fails stale versioned updates both ways', async () => {
    const node = quotas().resolved('contended').versioned();
    await node.set({ model: { max: 1, owner: 'x', ratio: 0 }, version: -1 });
    const seen = await node.read();
    // Java wins the race at the version both read; then our write at that version is stale.
    expect(
      await java.update('/interop/quotas/contended', seen.version, { max: 2, owner: 'java', ratio: 0 }),
    ).toBe('OK');
    await expect(
      node.update({ model: { max: 3, owner: 'node', ratio: 0 }, version: seen.version }),
    ).rejects.toMatchObject({
      code: 'BADVERSION',
    });
    const fresh = await node.read();
    expect(fresh).toEqual({ model: { max: 2, owner: 'java', ratio: 0 }, version: 1 });
    await node.update({ model: { max: 4, owner: 'node', ratio: 0 }, version: fresh.version });
    expect(
      await java.update('/interop/quotas/contended', fresh.version, { max: 5, owner: 'java', ratio: 0 }),
    ).toBe('BADVERSION');
    expect((await java.read('/interop/quotas/contended')).model.owner).toBe('node');
  });

  it("keeps a cached model current with Java's writes", async () => {
    await using cached = modeled(
      real.client(1),
      modelSpec({ path: '/interop/cached/{id}', schema: Quota }),
    ).cached();
    await cached.start();
    await java.set('/interop/cached/x', { max: 1, owner: 'java', ratio: 2.5 });
    await eventually(async () => (await cached.resolved('x').checkExists()) !== null);
    expect(await cached.resolved('x').read()).toEqual({ max: 1, owner: 'java', ratio: 2.5 });
    await java.set('/interop/cached/x', { max: 2, owner: 'java', ratio: 2.5 });
    await eventually(async () => (await cached.resolved('x').read()).max === 2);
  });
});

describe('MigrationManager interop with curator-x-async', () => {
  // Every op kind, binary data with bytes >= 0x80 (Java's signed bytes), versions, a sequential create.
  const setA = [
    [
      op.create('/interop/app', Uint8Array.of(0x00, 0x7f, 0x80, 0xff)),
      op.create('/interop/app/config', '{"v":1}'),
    ],
    [
      op.check('/interop/app', 0),
      op.setData('/interop/app/config', '{"v":2}', 0),
      op.create('/interop/app/log-', 'entry', { mode: 'persistent-sequential' }),
      op.create('/interop/app/tmp', null),
      op.delete('/interop/app/tmp', -1),
    ],
  ];

  it('sees a set applied by Java as applied, with the same hashes', async () => {
    expect(await java.migrate(layout, 'from-java', setA)).toBe('OK');
    const client = real.client(0);
    const records = (await client.getChildren('/interop/meta/from-java')).sort();
    expect(records).toEqual(['meta-0000000000', 'meta-0000000001']);
    for (const [i, record] of records.entries()) {
      const recorded = new Uint8Array((await client.getData(`/interop/meta/from-java/${record}`)).data);
      expect(recorded).toEqual(operationsHash(setA[i] ?? []));
    }
    // Node sees both as applied: the creates would fail with NodeExists if they ran again.
    await new MigrationManager(client, layout).migrate(migrationSet('from-java', setA));
    expect(await client.getChildren('/interop/meta/from-java')).toHaveLength(2);
    // A changed first migration is refused here, as Java refuses it.
    const changed = [[op.create('/interop/app', 'other')], setA[1] ?? []];
    await expect(
      new MigrationManager(client, layout).migrate(migrationSet('from-java', changed)),
    ).rejects.toThrow(MigrationMismatchError);
  });

  it('has a set applied by Node seen as applied by Java, and a changed one refused', async () => {
    const client = real.client(0);
    const setB = [
      [op.create('/interop/node-app', '{"by":"node"}')],
      [op.setData('/interop/node-app', '{"by":"node","v":2}', 0)],
    ];
    await new MigrationManager(client, layout).migrate(migrationSet('from-node', setB));
    expect(await java.migrate(layout, 'from-node', setB)).toBe('OK');
    expect(await client.getChildren('/interop/meta/from-node')).toHaveLength(2);
    expect((await client.getData('/interop/node-app')).data.toString()).toBe('{"by":"node","v":2}');
    const changed = [[op.create('/interop/node-app', '{"by":"java"}')], setB[1] ?? []];
    expect(await java.migrate(layout, 'from-node', changed)).toBe('MISMATCH');
  });

  it('applies each migration once when a Java and a Node process migrate at once', async () => {
    const [client, gateClient] = [real.client(0), real.client(1)];
    const migrations = Array.from({ length: 6 }, (_, i) => [op.create(`/interop/race-${i}`, String(i))]);
    // Both start while a third party holds the set's lock, so that they contend for it at the same moment
    // instead of one finishing before the other's JVM is up.
    const gate = new InterProcessSemaphoreMutex(gateClient, '/interop/locks/race');
    expect(await gate.acquire()).toBe(true);
    const javaRun = java.migrate(layout, 'race', migrations);
    const nodeRun = new MigrationManager(client, layout).migrate(migrationSet('race', migrations));
    // InterProcessSemaphoreV2's layout: one contender holds `locks` and waits on `leases` (the gate's lease
    // and its own), the other waits on `locks`.
    const count = (path: string) =>
      client.getChildren(path).then(
        (c) => c.length,
        () => 0,
      );
    await eventually(
      async () =>
        (await count('/interop/locks/race/leases')) === 2 && (await count('/interop/locks/race/locks')) === 2,
      { timeoutMs: 30_000 },
    );
    await gate.release();
    const [javaResult] = await Promise.all([javaRun, nodeRun]);
    expect(javaResult).toBe('OK');
    expect(await client.getChildren('/interop/meta/race')).toHaveLength(6);
    for (let i = 0; i < 6; i++)
      expect((await client.getData(`/interop/race-${i}`)).data.toString()).toBe(String(i));
  });
});
