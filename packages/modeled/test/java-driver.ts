/**
 * The curator-x-async 5.9.0 driver (java/ModeledDriver.java), compiled with javac at test time against
 * Curator from Maven Central (with the Jackson its JacksonModelSerializer needs) and run as one JVM per command.
 */
import { readFileSync } from 'node:fs';
import { type CompiledJava, compileJava, findCurator } from '@zkwire/testing';
import type { CreateMode, Op } from '@zkwire/zk-wire-client';

const source = readFileSync(new URL('./java/ModeledDriver.java', import.meta.url), 'utf8');

/** The Java model's fields (a plain object: int, String, double). */
export interface JavaQuota {
  max: number;
  owner: string;
  ratio: number;
}

/** Runs driver commands against one server. */
export interface ModeledDriver {
  readonly curatorVersion: string;
  set(path: string, quota: JavaQuota): Promise<void>;
  read(path: string): Promise<{ model: JavaQuota; version: number }>;
  /** A versioned update: 'OK', or 'BADVERSION' when the version is stale. */
  update(path: string, version: number, quota: JavaQuota): Promise<'OK' | 'BADVERSION'>;
  /** MigrationManager.migrate: 'OK', or 'MISMATCH' (MigrationException). */
  migrate(
    layout: { lockPath: string; metaDataPath: string; lockMaxMs: number },
    setId: string,
    migrations: Op[][],
  ): Promise<'OK' | 'MISMATCH'>;
}

const JAVA_MODES: Record<CreateMode, string> = {
  persistent: 'PERSISTENT',
  ephemeral: 'EPHEMERAL',
  'persistent-sequential': 'PERSISTENT_SEQUENTIAL',
  'ephemeral-sequential': 'EPHEMERAL_SEQUENTIAL',
  container: 'CONTAINER',
  'persistent-ttl': 'PERSISTENT_WITH_TTL',
  'persistent-sequential-ttl': 'PERSISTENT_SEQUENTIAL_WITH_TTL',
};

function hex(data: Uint8Array | string | null | undefined): string {
  if (data === null || data === undefined) return '';
  return Buffer.from(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).toString('hex');
}

function opText(item: Op): string {
  switch (item.type) {
    case 'create':
      if (item.acl !== undefined || item.ttlMs !== undefined) throw new Error('driver: default ACL, no TTL');
      return `c,${item.path},${hex(item.data)},${JAVA_MODES[item.mode]}`;
    case 'setData':
      return `s,${item.path},${hex(item.data)},${item.version}`;
    case 'delete':
      return `d,${item.path},${item.version}`;
    case 'check':
      return `k,${item.path},${item.version}`;
  }
}

/** The driver's text form of migrations (see ModeledDriver.java). */
export function migrationsText(migrations: Op[][]): string {
  return migrations.map((ops) => ops.map(opText).join('|')).join(';');
}

/** Compiles the driver (cached by source hash) and binds it to `connectString`. */
export async function modeledDriver(connectString: string): Promise<ModeledDriver> {
  const curator = findCurator({ modules: ['curator-x-async'] });
  const java: CompiledJava = await compileJava({
    sources: { 'ModeledDriver.java': source },
    classpath: curator.classpath,
  });
  const run = async (args: string[]): Promise<string> => {
    const result = await java.exec('ModeledDriver', [connectString, ...args]);
    if (result.code !== 0 || !result.stdout.includes('DONE')) {
      throw new Error(
        `ModeledDriver ${args.slice(0, 2).join(' ')} failed (${result.code}):\n${result.stderr.slice(-3000)}`,
      );
    }
    return result.stdout;
  };
  const quotaArgs = (q: JavaQuota) => [String(q.max), q.owner, String(q.ratio)];
  return {
    curatorVersion: curator.version,
    async set(path, quota) {
      await run(['set', path, ...quotaArgs(quota)]);
    },
    async read(path) {
      const line = (await run(['read', path])).split('\n').find((l) => l.startsWith('MODEL\t')) ?? '';
      const [, max, owner, ratio, version] = line.split('\t');
      return {
        model: { max: Number(max), owner: owner ?? '', ratio: Number(ratio) },
        version: Number(version),
      };
    },
    async update(path, version, quota) {
      const out = await run(['update', path, String(version), ...quotaArgs(quota)]);
      return out.includes('BADVERSION') ? 'BADVERSION' : 'OK';
    },
    async migrate(layout, setId, migrations) {
      const out = await run([
        'migrate',
        layout.lockPath,
        layout.metaDataPath,
        setId,
        String(layout.lockMaxMs),
        migrationsText(migrations),
      ]);
      return out.includes('MISMATCH') ? 'MISMATCH' : 'OK';
    },
  };
}
