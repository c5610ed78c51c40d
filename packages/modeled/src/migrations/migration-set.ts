/**
 * Migrations (curator-x-async's `Migration` and `MigrationSet`): a migration is a list of operations run in
 * one `multi`; a set has an id and its migrations in the order they apply.
 */
import type { Op } from '@zkwire/zk-wire-client';
import { InvalidModelArgumentError } from '../errors.js';
import { checkNodeName } from '../node-name.js';

/** One migration: its operations, asked for each time they are needed (hashing, then applying). */
export interface Migration {
  operations(): Op[];
}

/** An id (one znode name) and ordered migrations. */
export interface MigrationSet {
  readonly id: string;
  readonly migrations: readonly Migration[];
}

/** A migration set; each migration is given as its ops, a function returning them, or a {@link Migration}. */
export function migrationSet(
  id: string,
  migrations: ReadonlyArray<Op[] | (() => Op[]) | Migration>,
): MigrationSet {
  if (typeof id !== 'string') throw new InvalidModelArgumentError('migrationSet', 'id must be a string');
  checkNodeName(id, 'migrationSet id');
  if (!Array.isArray(migrations))
    throw new InvalidModelArgumentError('migrationSet', 'migrations must be an array');
  const list = migrations.map((migration, index): Migration => {
    if (Array.isArray(migration)) {
      const ops = [...migration];
      return { operations: () => ops };
    }
    if (typeof migration === 'function') return { operations: migration };
    if (typeof migration?.operations === 'function') return migration;
    throw new InvalidModelArgumentError(`migrationSet "${id}"`, `migration ${index} is not a list of ops`);
  });
  return Object.freeze({ id, migrations: Object.freeze(list) });
}
