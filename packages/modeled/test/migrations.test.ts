/**
 * MigrationManager on a real server, in curator-x-async's layout: records under
 * `<metaDataPath>/<setId>/meta-<seq>` holding each migration's hash, applied migrations skipped, new ones
 * applied in one multi, a changed earlier migration refused with nothing applied, two sessions migrating at
 * once applying each migration once, and the lock's timeout.
 */
import { InterProcessSemaphoreMutex } from '@zkwire/recipes';
import { op } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import {
  MigrationLockTimeoutError,
  MigrationManager,
  MigrationMismatchError,
  migrationSet,
  operationsHash,
} from '../src/index.js';
import { useRealServer } from './helpers.js';

const real = useRealServer(2);

const first = [op.create('/mig/app', 'v1'), op.create('/mig/app/config', '{"level":1}')];
const second = [op.setData('/mig/app/config', '{"level":2}'), op.create('/mig/app/flags', '{}')];

describe('MigrationManager', () => {
  it('applies a set once, records each migration, and applies only what is new', async () => {
    const client = real.client(0);
    const manager = new MigrationManager(client, {
      lockPath: '/mig/locks',
      metaDataPath: '/mig/meta',
      lockMaxMs: 10_000,
    });
    await manager.migrate(migrationSet('app', [first]));
    expect((await client.getData('/mig/app/config')).data.toString()).toBe('{"level":1}');
    const records = await client.getChildren('/mig/meta/app');
    expect(records).toEqual(['meta-0000000000']);
    const recorded = (await client.getData('/mig/meta/app/meta-0000000000')).data;
    expect(new Uint8Array(recorded)).toEqual(operationsHash(first));

    // Applied again: nothing to do (the creates would fail if they ran twice).
    await manager.migrate(migrationSet('app', [first]));
    expect(await client.getChildren('/mig/meta/app')).toEqual(['meta-0000000000']);

    // One more migration: only it runs.
    await manager.migrate(migrationSet('app', [first, second]));
    expect((await client.getData('/mig/app/config')).data.toString()).toBe('{"level":2}');
    expect((await client.getChildren('/mig/meta/app')).sort()).toEqual([
      'meta-0000000000',
      'meta-0000000001',
    ]);
  });

  it('refuses a changed earlier migration and fewer migrations than recorded, applying nothing', async () => {
    const client = real.client(0);
    const manager = new MigrationManager(client, {
      lockPath: '/mig/locks',
      metaDataPath: '/mig/meta',
      lockMaxMs: 10_000,
    });
    const changed = [op.create('/mig/app', 'v1-changed'), op.create('/mig/app/config', '{"level":1}')];
    const third = [op.create('/mig/app/never', 'x')];
    const error = await manager
      .migrate(migrationSet('app', [changed, second, third]))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationMismatchError);
    expect(error).toMatchObject({ code: 'MIGRATION_MISMATCH', migrationSetId: 'app' });
    await expect(manager.migrate(migrationSet('app', [first]))).rejects.toThrow(
      /More metadata than migrations/,
    );
    expect(await client.exists('/mig/app/never')).toBeNull();
    expect(await client.getChildren('/mig/meta/app')).toHaveLength(2);
  });

  it('applies all pending migrations in one multi: a failing one applies none', async () => {
    const client = real.client(0);
    const manager = new MigrationManager(client, {
      lockPath: '/mig/locks',
      metaDataPath: '/mig/meta',
      lockMaxMs: 10_000,
    });
    const ok = [op.create('/mig/multi-a', 'a')];
    const failing = [op.create('/mig/missing-parent/x', 'x')];
    await expect(manager.migrate(migrationSet('multi', [ok, failing]))).rejects.toMatchObject({
      name: 'MultiError',
    });
    expect(await client.exists('/mig/multi-a')).toBeNull();
    expect(await client.exists('/mig/meta/multi/meta-0000000000')).toBeNull();
  });

  it('applies each migration once when two sessions migrate at once', async () => {
    const [a, b] = [real.client(0), real.client(1)];
    const options = { lockPath: '/mig/locks', metaDataPath: '/mig/meta', lockMaxMs: 20_000 };
    // Each migration creates a node: run twice, its multi would fail with NodeExists.
    const migrations = Array.from({ length: 5 }, (_, i) => [op.create(`/mig/race-${i}`, String(i))]);
    await Promise.all([
      new MigrationManager(a, options).migrate(migrationSet('race', migrations)),
      new MigrationManager(b, options).migrate(migrationSet('race', migrations)),
    ]);
    expect(await a.getChildren('/mig/meta/race')).toHaveLength(5);
    for (let i = 0; i < 5; i++) expect((await a.getData(`/mig/race-${i}`)).data.toString()).toBe(String(i));
  });

  it('gives up on the lock after lockMaxMs with nothing applied', async () => {
    const [a, b] = [real.client(0), real.client(1)];
    const holder = new InterProcessSemaphoreMutex(b, '/mig/locks/held');
    expect(await holder.acquire()).toBe(true);
    try {
      const manager = new MigrationManager(a, {
        lockPath: '/mig/locks',
        metaDataPath: '/mig/meta',
        lockMaxMs: 200,
      });
      const error = await manager
        .migrate(migrationSet('held', [[op.create('/mig/held', '')]]))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationLockTimeoutError);
      expect(await a.exists('/mig/held')).toBeNull();
    } finally {
      await holder.release();
    }
  });
});
