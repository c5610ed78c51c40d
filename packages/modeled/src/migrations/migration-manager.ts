/**
 * MigrationManager (curator-x-async's): applies a {@link MigrationSet} once across processes, in Curator's
 * layout, so Java and Node processes share the record of what was applied.
 *
 * - The run holds an InterProcessSemaphoreMutex at `<lockPath>/<setId>` (waiting up to `lockMaxMs`).
 * - Applied migrations are the children `<metaDataPath>/<setId>/meta-<sequence>`, each holding the SHA-256
 *   of its migration's operations ({@link operationsHash}); sorted by path they are the applied prefix.
 * - More records than migrations, or a record whose hash differs from its migration's, fails with
 *   {@link MigrationMismatchError} and applies nothing.
 * - The rest are applied in ONE multi: each migration's ops followed by the create of its record
 *   (persistent-sequential), so that all or none are applied. `<metaDataPath>/<setId>` is made first, as
 *   containers.
 */
import { InterProcessSemaphoreMutex } from '@zkwire/recipes';
import { isNoNode, type Op, op, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { InvalidModelArgumentError, MigrationLockTimeoutError, MigrationMismatchError } from '../errors.js';
import type { Migration, MigrationSet } from './migration-set.js';
import { operationsHash } from './op-digest.js';

const META_DATA_NODE_NAME = 'meta-';

/** Options of {@link MigrationManager}. */
export interface MigrationManagerOptions {
  /** Base path of the locks (`<lockPath>/<setId>`). */
  lockPath: string;
  /** Base path of the records of applied migrations (`<metaDataPath>/<setId>/meta-…`). */
  metaDataPath: string;
  /** How long to wait for the lock, in ms. */
  lockMaxMs: number;
}

function join(base: string, name: string): string {
  return base === '/' ? `/${name}` : `${base}/${name}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Applies migration sets; see the module notes. */
export class MigrationManager {
  readonly #client: ZooKeeperClient;
  readonly #options: Readonly<MigrationManagerOptions>;

  constructor(client: ZooKeeperClient, options: MigrationManagerOptions) {
    for (const key of ['lockPath', 'metaDataPath'] as const) {
      const path = options?.[key];
      if (typeof path !== 'string' || !path.startsWith('/') || (path.length > 1 && path.endsWith('/'))) {
        throw new InvalidModelArgumentError('MigrationManager', `${key} must be a znode path`);
      }
    }
    if (!Number.isFinite(options.lockMaxMs) || options.lockMaxMs < 0) {
      throw new InvalidModelArgumentError('MigrationManager', 'lockMaxMs must be a number of ms >= 0');
    }
    this.#client = client;
    this.#options = { ...options };
  }

  /**
   * Applies the migrations of `set` not applied yet (see the module notes). Rejects with
   * MigrationMismatchError or MigrationLockTimeoutError (nothing applied), or the server's error.
   */
  async migrate(set: MigrationSet): Promise<void> {
    if (typeof set?.id !== 'string' || !Array.isArray(set.migrations)) {
      throw new InvalidModelArgumentError('migrate', 'expected a MigrationSet (see migrationSet())');
    }
    const lock = new InterProcessSemaphoreMutex(this.#client, join(this.#options.lockPath, set.id));
    if (!(await lock.acquire({ timeoutMs: this.#options.lockMaxMs }))) {
      throw new MigrationLockTimeoutError(set.id, this.#options.lockMaxMs);
    }
    try {
      await this.#runInLock(set);
    } finally {
      await lock.release();
    }
  }

  /**
   * Which migrations to apply, given the hashes of those applied (in order): Curator's default checks that
   * they are a prefix of the set, by order and hash. Override to change the comparison.
   */
  protected filter(set: MigrationSet, operationHashesInOrder: readonly Uint8Array[]): readonly Migration[] {
    if (operationHashesInOrder.length > set.migrations.length) {
      throw new MigrationMismatchError(set.id, `More metadata than migrations. Migration ID: ${set.id}`);
    }
    operationHashesInOrder.forEach((applied, i) => {
      const migration = set.migrations[i] as Migration;
      if (!sameBytes(operationsHash(migration.operations()), applied)) {
        throw new MigrationMismatchError(set.id, `Metadata mismatch. Migration ID: ${set.id}`);
      }
    });
    return set.migrations.slice(operationHashesInOrder.length);
  }

  async #runInLock(set: MigrationSet): Promise<void> {
    const setPath = join(this.#options.metaDataPath, set.id);
    const toApply = this.filter(set, await this.#appliedHashes(setPath));
    if (toApply.length === 0) return;
    await this.#client.ensurePath(setPath, 'container');
    const ops: Op[] = [];
    const metaPath = join(setPath, META_DATA_NODE_NAME);
    for (const migration of toApply) {
      const migrationOps = migration.operations();
      ops.push(
        ...migrationOps,
        op.create(metaPath, operationsHash(migrationOps), { mode: 'persistent-sequential' }),
      );
    }
    await this.#client.multi(ops);
  }

  /** The hashes recorded under the set's path, in path order; none when the path does not exist. */
  async #appliedHashes(setPath: string): Promise<Uint8Array[]> {
    let children: string[];
    try {
      children = await this.#client.getChildren(setPath);
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
    }
    const paths = children.map((name) => join(setPath, name)).sort();
    const records = await Promise.all(paths.map((path) => this.#client.getData(path)));
    return records.map((record) => new Uint8Array(record.data ?? new Uint8Array(0)));
  }
}
