/**
 * cached() on a real server: reads wait for the initial load, follow another session's writes, typed
 * created/changed/deleted events (listeners and the async iterable), a parameterized last segment caching
 * its parent's children, list() of all descendants, and a corrupt or invalid node reported with its path
 * and skipped while the cache goes on.
 */
import { eventually } from '@zkwire/testing';
import { isNoNode } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  IllegalModeledStateError,
  type ModelCacheEvent,
  ModelDeserializationError,
  ModelValidationError,
  modeled,
  modelSpec,
  UnresolvedPathError,
  type ZNode,
} from '../src/index.js';
import { useRealServer } from './helpers.js';

const real = useRealServer(2);
const Flag = z.object({ on: z.boolean() });
type Flag = z.infer<typeof Flag>;

describe('cached()', () => {
  it('answers the first read after start() from the initial load', async () => {
    const writer = real.client(1);
    const flags = modelSpec({ path: '/cm/first/{name}', schema: Flag });
    await modeled(writer, flags).resolved('dark').set({ on: true });
    await using cached = modeled(real.client(0), flags).cached();
    expect(cached.cacheRoot).toBe('/cm/first');
    await cached.start();
    // No wait for initialization here: the read itself waits for it (Curator 5.9).
    expect(await cached.resolved('dark').read()).toEqual({ on: true });
    expect(cached.isInitialized).toBe(true);
  });

  it("follows another session's writes with typed events", async () => {
    const writer = modeled(real.client(1), modelSpec({ path: '/cm/follow/{name}', schema: Flag }));
    await using cached = modeled(
      real.client(0),
      modelSpec({ path: '/cm/follow/{name}', schema: Flag }),
    ).cached();
    const seen: string[] = [];
    cached.on('created', (node: ZNode<Flag>) => seen.push(`created ${node.path} ${node.model.on}`));
    cached.on('changed', (node, previous) =>
      seen.push(`changed ${node.path} ${previous?.model.on}->${node.model.on}`),
    );
    cached.on('deleted', (node) => seen.push(`deleted ${node.path} ${node.model.on}`));
    const iterated: ModelCacheEvent<Flag>[] = [];
    const iteration = (async () => {
      for await (const event of cached.events()) {
        iterated.push(event);
        if (event.type === 'deleted') break;
      }
    })();
    await cached.start();
    await cached.initialized();
    await writer.resolved('a').set({ on: false });
    await eventually(async () => (await cached.resolved('a').checkExists()) !== null);
    await writer.resolved('a').update({ on: true });
    await eventually(async () => (await cached.resolved('a').read()).on);
    await writer.resolved('a').delete();
    await eventually(() => seen.length === 3);
    expect(seen).toEqual([
      'created /cm/follow/a false',
      'changed /cm/follow/a false->true',
      'deleted /cm/follow/a true',
    ]);
    await iteration;
    expect(iterated.map((e) => [e.type, e.path, e.model.on])).toEqual([
      ['created', '/cm/follow/a', false],
      ['changed', '/cm/follow/a', true],
      ['deleted', '/cm/follow/a', true],
    ]);
    await expect(cached.resolved('a').read()).rejects.toSatisfy(isNoNode);
  });

  it('lists children and all descendants from the cache, leaving out nodes without data', async () => {
    const writer = modeled(real.client(1), modelSpec({ path: '/cm/tree', schema: Flag }));
    await writer.child('x').set({ on: true });
    await writer.child('x').child('deep').set({ on: false });
    await writer.child('y').set({ on: false });
    await using cached = modeled(real.client(0), modelSpec({ path: '/cm/tree', schema: Flag })).cached();
    await cached.start();
    expect((await cached.children()).map(String)).toEqual(['/cm/tree/x', '/cm/tree/y']);
    expect((await cached.childrenAsZNodes()).map((n) => n.model)).toEqual([{ on: true }, { on: false }]);
    expect((await cached.listAsZNodes()).map((n) => n.path)).toEqual([
      '/cm/tree/x',
      '/cm/tree/x/deep',
      '/cm/tree/y',
    ]);
    // /cm/tree itself has no data: not a model, so checkExists says null; readThrough asks the server.
    expect(await cached.checkExists()).toBeNull();
    expect(await cached.child('x').readThrough()).toEqual({ on: true });
  });

  it('reports a corrupt or invalid node with its path and skips it; the cache goes on', async () => {
    const raw = real.client(1);
    await raw.create('/cm/broken/good', '{"on":true}', { createParents: true });
    await raw.create('/cm/broken/corrupt', '{"on":', { createParents: true });
    await using cached = modeled(
      real.client(0),
      modelSpec({ path: '/cm/broken/{id}', schema: Flag }),
    ).cached();
    const errors: unknown[] = [];
    cached.on('error', (error) => errors.push(error));
    await cached.start();
    expect((await cached.list()).length).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ModelDeserializationError);
    expect(errors[0]).toMatchObject({ path: '/cm/broken/corrupt' });
    // A valid node turned invalid leaves the cache, with an error naming it.
    await raw.setData('/cm/broken/good', '{"on":"yes"}');
    await eventually(() => errors.length === 2);
    expect(errors[1]).toBeInstanceOf(ModelValidationError);
    expect(errors[1]).toMatchObject({ path: '/cm/broken/good', direction: 'read' });
    await expect(cached.resolved('good').read()).rejects.toSatisfy(isNoNode);
    // And the cache still follows writes.
    await raw.setData('/cm/broken/corrupt', '{"on":false}');
    await eventually(async () => (await cached.resolved('corrupt').checkExists()) !== null);
    expect(await cached.resolved('corrupt').read()).toEqual({ on: false });
  });

  it('makes the cache root as containers on start, refuses reads before start and after close', async () => {
    const client = real.client(0);
    const cached = modeled(client, modelSpec({ path: '/cm/fresh/root/{id}' })).cached();
    await expect(cached.resolved('a').read()).rejects.toThrow(IllegalModeledStateError);
    await cached.start();
    expect(await client.exists('/cm/fresh/root')).not.toBeNull();
    await cached.close();
    await expect(cached.resolved('a').read()).rejects.toThrow(IllegalModeledStateError);
    expect(() => cached.parent()).toThrow(IllegalModeledStateError);
  });

  it('rejects a read at a path with parameters left, and reads the same model through a path resolved again', async () => {
    const writer = modeled(real.client(1), modelSpec({ path: '/cm/again/{name}', schema: Flag }));
    await writer.resolved('x').set({ on: true });
    await using cached = modeled(real.client(0), writer.spec).cached();
    await cached.start();
    const read = cached.read();
    await expect(read).rejects.toThrow(UnresolvedPathError);
    for (let i = 0; i < 3; i++) expect(await cached.resolved({ name: 'x' }).read()).toEqual({ on: true });
    await writer.resolved('x').set({ on: false });
    await eventually(async () => (await cached.resolved('x').read()).on === false);
  });

  it('reads versioned from the cache and writes compare-and-set to the server', async () => {
    const spec = modelSpec({ path: '/cm/versioned', schema: Flag });
    await modeled(real.client(1), spec).set({ on: false });
    await using cached = modeled(real.client(0), spec).cached();
    await cached.start();
    const versioned = cached.versioned();
    const read = await versioned.read();
    expect(read).toEqual({ model: { on: false }, version: 0 });
    await versioned.update({ model: { on: true }, version: read.version });
    await eventually(async () => (await versioned.read()).version === 1);
    await expect(versioned.update({ model: { on: false }, version: 0 })).rejects.toMatchObject({
      code: 'BADVERSION',
    });
  });
});
