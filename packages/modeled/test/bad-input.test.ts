/**
 * Bad input on a real server: unresolved parameters, a model the schema refuses, a serializer that throws
 * (nothing sent for any of them: no request recorded, no node made), a corrupt node and a node that fails
 * the schema (typed errors with the path), and bad options refused before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidModelArgumentError,
  ModelDeserializationError,
  ModeledError,
  ModelSerializationError,
  ModelValidationError,
  modeled,
  modelSpec,
  UnresolvedPathError,
} from '../src/index.js';
import { recordCalls, useRealServer } from './helpers.js';

const real = useRealServer(1);
const Quota = z.object({ max: z.number().int().nonnegative() });

describe('bad input', () => {
  it('refuses operations on unresolved paths before anything is sent', async () => {
    const { client, calls } = recordCalls(real.client(0));
    const quotas = modeled(client, modelSpec({ path: '/bad/tenants/{id}/quota', schema: Quota }));
    await expect(quotas.set({ max: 1 })).rejects.toThrow(UnresolvedPathError);
    await expect(quotas.read()).rejects.toThrow(UnresolvedPathError);
    await expect(quotas.update({ max: 1 })).rejects.toThrow(UnresolvedPathError);
    await expect(quotas.delete()).rejects.toThrow(UnresolvedPathError);
    await expect(quotas.checkExists()).rejects.toThrow(UnresolvedPathError);
    await expect(quotas.children()).rejects.toThrow(UnresolvedPathError);
    expect(() => quotas.createOp({ max: 1 })).toThrow(UnresolvedPathError);
    expect(() => quotas.deleteOp()).toThrow(UnresolvedPathError);
    const error = await quotas.read().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNRESOLVED_PATH', path: '/bad/tenants/{id}/quota' });
    expect(ModeledError.isInstance(error)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('refuses a wrong parameter name at compile time and at run time', () => {
    const quotas = modeled(real.client(0), modelSpec({ path: '/bad/tenants/{id}/quota', schema: Quota }));
    // @ts-expect-error the parameter is `id`: refused by the compiler (tsc checks this file) and at run time
    expect(() => quotas.resolved({ tenant: 't1' })).toThrow(InvalidModelArgumentError);
    expect(() => quotas.resolved({ id: 'a/b' })).toThrow(/contains "\/"/);
  });

  it('sends nothing when the schema refuses the model, and says why', async () => {
    const { client, calls } = recordCalls(real.client(0));
    const quota = modeled(client, modelSpec({ path: '/bad/refused', schema: Quota }));
    const error = await quota.set({ max: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelValidationError);
    expect(error).toMatchObject({ code: 'MODEL_INVALID', path: '/bad/refused', direction: 'write' });
    expect((error as ModelValidationError).issues[0]?.path).toEqual(['max']);
    await expect(quota.update({ max: 1.5 })).rejects.toThrow(ModelValidationError);
    expect(() => quota.createOp({ max: -2 })).toThrow(ModelValidationError);
    expect(calls).toEqual([]);
    expect(await real.client(0).exists('/bad/refused')).toBeNull();
  });

  it('sends nothing when the serializer throws', async () => {
    const { client, calls } = recordCalls(real.client(0));
    const serializer = {
      serialize(): Uint8Array {
        throw new Error('cannot write this');
      },
      deserialize: (bytes: Uint8Array) => bytes,
    };
    const m = modeled(client, modelSpec({ path: '/bad/serializer', serializer }));
    const error = await m.set(new Uint8Array()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelSerializationError);
    expect(error).toMatchObject({ code: 'SERIALIZE_FAILED', path: '/bad/serializer' });
    expect((error as Error).cause).toMatchObject({ message: 'cannot write this' });
    const nan = modeled(client, modelSpec({ path: '/bad/nan' }));
    await expect(nan.set({ x: Number.NaN })).rejects.toThrow(ModelSerializationError);
    expect(calls).toEqual([]);
  });

  it('reports a corrupt node with its path and bytes', async () => {
    const client = real.client(0);
    await client.create('/bad/corrupt', '{"max": 1', { createParents: true });
    const m = modeled(client, modelSpec({ path: '/bad/corrupt', schema: Quota }));
    const error = await m.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelDeserializationError);
    expect(error).toMatchObject({ code: 'DESERIALIZE_FAILED', path: '/bad/corrupt' });
    expect(Buffer.from((error as ModelDeserializationError).data).toString()).toBe('{"max": 1');
    await client.create('/bad/empty', null);
    await expect(modeled(client, modelSpec({ path: '/bad/empty' })).read()).rejects.toThrow(
      ModelDeserializationError,
    );
  });

  it('reports a node the schema refuses on read, with the validator issues', async () => {
    const client = real.client(0);
    await client.create('/bad/invalid', '{"max":"lots"}', { createParents: true });
    const error = await modeled(client, modelSpec({ path: '/bad/invalid', schema: Quota }))
      .read()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelValidationError);
    expect(error).toMatchObject({ path: '/bad/invalid', direction: 'read' });
    expect((error as ModelValidationError).issues.length).toBeGreaterThan(0);
  });

  it('refuses bad spec options and versions before anything is sent', async () => {
    const { client, calls } = recordCalls(real.client(0));
    expect(() => modelSpec({ path: 'no-slash' })).toThrow(InvalidModelArgumentError);
    expect(() => modelSpec({ path: '/x', createMode: 'persistent-ttl' })).toThrow(/needs ttlMs/);
    expect(() => modelSpec({ path: '/x', ttlMs: 5 })).toThrow(/needs a TTL createMode/);
    expect(() => modelSpec({ path: '/x', schema: {} as never })).toThrow(/Standard Schema/);
    const m = modeled(client, modelSpec({ path: '/bad/version' }));
    await expect(m.update({}, 1.5)).rejects.toThrow(InvalidModelArgumentError);
    await expect(m.delete(-2)).rejects.toThrow(InvalidModelArgumentError);
    expect(calls).toEqual([]);
  });
});
