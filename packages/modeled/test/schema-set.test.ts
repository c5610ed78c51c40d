/**
 * SchemaSet on a real server: the modeled framework and a schema-checked client refuse what a schema does
 * not allow (ephemeral / sequential / watched / delete / data) before anything is sent, with the schema's
 * name in the error; allowed calls go through.
 */
import { describe, expect, it } from 'vitest';
import {
  modeled,
  modelSpec,
  SchemaSet,
  SchemaViolationError,
  schemaCheckedClient,
  zpath,
} from '../src/index.js';
import { recordCalls, useRealServer } from './helpers.js';

const real = useRealServer(1);

const schemas = new SchemaSet([
  { name: 'config', path: '/ss/config', ephemeral: 'cannot', canBeDeleted: false },
  {
    name: 'sessions',
    path: zpath('/ss/sessions/{id}'),
    ephemeral: 'must',
    validateData: (_path, data) => (data !== null && data.length <= 32) || 'at most 32 bytes',
  },
  { name: 'queue', path: /\/ss\/queue\/item-.*/, sequential: 'must' },
  { name: 'watched', path: '/ss/watched', watched: 'must' },
]);

describe('SchemaSet', () => {
  it('refuses model writes that a schema does not allow, before anything is sent', async () => {
    const { client, calls } = recordCalls(real.client(0));
    const config = modeled(client, modelSpec({ path: '/ss/config', createMode: 'ephemeral' }), {
      schemaSet: schemas,
    });
    const error = await config.set({ a: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaViolationError);
    expect(error).toMatchObject({ code: 'SCHEMA_VIOLATION', schemaName: 'config', path: '/ss/config' });
    expect((error as Error).message).toContain('cannot be ephemeral');
    const sessions = modeled(client, modelSpec({ path: '/ss/sessions/{id}', createMode: 'ephemeral' }), {
      schemaSet: schemas,
    });
    await expect(sessions.resolved('s1').set({ user: 'x'.repeat(40) })).rejects.toThrow(/at most 32 bytes/);
    expect(calls).toEqual([]);
    // Allowed: an ephemeral session with small data, and a persistent config that may not be deleted.
    await sessions.resolved('s1').set({ user: 'ann' });
    const persistentConfig = modeled(client, modelSpec({ path: '/ss/config' }), { schemaSet: schemas });
    await persistentConfig.set({ a: 1 });
    await expect(persistentConfig.delete()).rejects.toThrow(
      /schema "config" refuses \/ss\/config: cannot be deleted/,
    );
    expect(() => persistentConfig.deleteOp()).toThrow(SchemaViolationError);
    expect(await real.client(0).exists('/ss/config')).not.toBeNull();
  });

  it('checks every call of a wrapped client', async () => {
    const checked = schemaCheckedClient(real.client(0), schemas);
    await expect(checked.create('/ss/queue/item-', 'x')).rejects.toThrow(/must be sequential/);
    const made = await checked.create('/ss/queue/item-', 'x', {
      mode: 'persistent-sequential',
      createParents: true,
    });
    expect(made).toMatch(/^\/ss\/queue\/item-\d{10}$/);
    await expect(checked.getData('/ss/watched')).rejects.toThrow(/must be watched/);
    await expect(checked.multi([{ type: 'delete', path: '/ss/config', version: -1 }])).rejects.toThrow(
      SchemaViolationError,
    );
    // Paths no schema covers are allowed everything (the default schema).
    await checked.create('/ss/free', 'ok');
    expect((await checked.getData('/ss/free')).data.toString()).toBe('ok');
  });

  it('refuses paths no schema covers when the default schema is off', () => {
    const strict = new SchemaSet([{ name: 'only', path: '/only' }], { useDefaultSchema: false });
    expect(() => strict.checkDelete('/elsewhere')).toThrow(/no schema covers this path/);
    expect(() => strict.checkDelete('/only')).not.toThrow();
  });
});
