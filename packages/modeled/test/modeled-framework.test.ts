/**
 * ModeledFramework on a real server: set/read/update/delete with Curator's defaults (parents as containers,
 * set-data-if-exists, guaranteed delete), reads as ZNodes, children and list, path changes, and the call
 * options (timeoutMs, signal).
 */
import { eventually } from '@zkwire/testing';
import { isBadVersion, isNoNode } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSerializer, modeled, modelSpec, zpath } from '../src/index.js';
import { useRealServer } from './helpers.js';

const real = useRealServer(1);

const Quota = z.object({ max: z.number().int(), owner: z.string() });

describe('ModeledFramework', () => {
  it('writes Jackson-style JSON and reads it back typed', async () => {
    const client = real.client(0);
    const quotas = modeled(client, modelSpec({ path: '/mf/tenants/{id}/quota', schema: Quota }));
    const t1 = quotas.resolved({ id: 't1' });
    expect(await t1.set({ max: 10, owner: 'ann' })).toBe('/mf/tenants/t1/quota');
    const { data } = await client.getData('/mf/tenants/t1/quota');
    expect(Buffer.from(data).toString('utf8')).toBe('{"max":10,"owner":"ann"}');
    const model = await t1.read();
    expect(model).toEqual({ max: 10, owner: 'ann' });
    const node = await t1.readAsZNode();
    expect(node.path).toBe('/mf/tenants/t1/quota');
    expect(node.stat.version).toBe(0);
  });

  it('makes parents as containers and overwrites an existing node on set (set-data-if-exists)', async () => {
    const client = real.client(0);
    const m = modeled(client, modelSpec({ path: '/mf/parents/a/b', serializer: jsonSerializer<number[]>() }));
    await m.set([1]);
    const parent = await client.exists('/mf/parents/a');
    expect(parent).not.toBeNull();
    await m.set([1, 2]);
    expect(await m.read()).toEqual([1, 2]);
    expect((await m.checkExists())?.version).toBe(1);
    // With set-data-if-exists, set's version is a compare-and-set on the existing node.
    await expect(m.set([3], { version: 0 })).rejects.toSatisfy(isBadVersion);
    await m.set([3], 1);
    expect(await m.read()).toEqual([3]);
    // The parents are containers: the server reaps them once the model node is gone.
    await m.delete();
    await eventually(async () => (await client.exists('/mf/parents')) === null);
  });

  it('refuses to overwrite when setDataIfExists is off', async () => {
    const client = real.client(0);
    const spec = modelSpec({ path: '/mf/once', createOptions: { setDataIfExists: false } });
    const m = modeled(client, spec);
    await m.set({ a: 1 });
    await expect(m.set({ a: 2 })).rejects.toMatchObject({ code: 'NODEEXISTS' });
  });

  it('updates with and without a version, and deletes', async () => {
    const client = real.client(0);
    const m = modeled(client, modelSpec({ path: '/mf/upd', schema: Quota }));
    await m.set({ max: 1, owner: 'a' });
    const stat = await m.update({ max: 2, owner: 'a' });
    expect(stat.version).toBe(1);
    await expect(m.update({ max: 3, owner: 'a' }, 0)).rejects.toSatisfy(isBadVersion);
    await m.update({ max: 3, owner: 'a' }, { version: 1 });
    expect((await m.read()).max).toBe(3);
    await expect(m.delete(0)).rejects.toSatisfy(isBadVersion);
    await m.delete();
    expect(await m.checkExists()).toBeNull();
    await expect(m.read()).rejects.toSatisfy(isNoNode);
    await expect(m.delete()).rejects.toSatisfy(isNoNode);
  });

  it('deletes quietly and with children when the spec says so', async () => {
    const client = real.client(0);
    const spec = modelSpec({
      path: '/mf/del',
      deleteOptions: { quietly: true, deletingChildrenIfNeeded: true },
    });
    const m = modeled(client, spec);
    await m.set({ root: true });
    await m.child('kid').set({ kid: true });
    await m.child('kid').child('grandkid').set({ kid: true });
    await m.delete();
    expect(await client.exists('/mf/del')).toBeNull();
    await m.delete(); // quietly: already gone
  });

  it('lists children paths, children models and all descendants', async () => {
    const client = real.client(0);
    const users = modeled(
      client,
      modelSpec({ path: '/mf/users/{id}', schema: z.object({ name: z.string() }) }),
    );
    await users.resolved('b').set({ name: 'Bea' });
    await users.resolved('a').set({ name: 'Al' });
    await users.resolved('a').child('pet').set({ name: 'Rex' });
    const parent = users.parent();
    expect((await parent.children()).map(String)).toEqual(['/mf/users/a', '/mf/users/b']);
    const kids = await parent.childrenAsZNodes();
    expect(kids.map((k) => [k.path, k.model])).toEqual([
      ['/mf/users/a', { name: 'Al' }],
      ['/mf/users/b', { name: 'Bea' }],
    ]);
    // /mf/users has no data of its own (a container made as a parent): not a model.
    expect(await parent.list()).toEqual([{ name: 'Al' }, { name: 'Rex' }, { name: 'Bea' }]);
    expect((await users.resolved('a').listAsZNodes()).map((n) => n.path)).toEqual([
      '/mf/users/a',
      '/mf/users/a/pet',
    ]);
    await expect(modeled(client, modelSpec({ path: '/mf/none' })).children()).rejects.toSatisfy(isNoNode);
    const lenient = modeled(client, modelSpec({ path: '/mf/none' }), { ignoreMissingNodesForChildren: true });
    expect(await lenient.children()).toEqual([]);
  });

  it('resolves the last parameter from a model that names its node (Curator resolves from the model)', async () => {
    const client = real.client(0);
    class Service {
      constructor(
        readonly id: string,
        readonly port: number,
      ) {}
      nodeName() {
        return this.id;
      }
    }
    const services = modeled(
      client,
      modelSpec({ path: zpath('/mf/services/{id}'), serializer: jsonSerializer<Service>() }),
    );
    expect(await services.set(new Service('web', 80))).toBe('/mf/services/web');
    expect(await services.resolved('web').read()).toEqual({ id: 'web', port: 80 });
  });

  it('returns the sequential path of a sequential create mode', async () => {
    const client = real.client(0);
    const m = modeled(client, modelSpec({ path: '/mf/seq/item-', createMode: 'persistent-sequential' }));
    const path = await m.set({ n: 1 });
    expect(path).toMatch(/^\/mf\/seq\/item-\d{10}$/);
  });

  it('passes timeoutMs and signal to the client', async () => {
    const client = real.client(0);
    const m = modeled(client, modelSpec({ path: '/mf/opts' }));
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(m.set({ a: 1 }, { signal: aborted })).rejects.toThrow('stop');
    expect(await client.exists('/mf/opts')).toBeNull();
    await m.set({ a: 1 }, { timeoutMs: 10_000 });
    expect(await m.read({ timeoutMs: 10_000 })).toEqual({ a: 1 });
    await expect(m.read({ signal: aborted })).rejects.toThrow('stop');
  });
});
