/**
 * CuratorCache on a real ZooKeeper 3.8.0: both engines (the persistent recursive watch of 3.6+, and the
 * one-shot watches a 3.5 server needs, selected by option) against the same scripted changes; the options
 * (single node, Stat only, depth); events as listeners and as an async iterable; the pipelined initial load;
 * bad input; and close leaving no watch, no listener.
 */

import { gzipSync } from 'node:zlib';
import { eventually } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import type { CacheEvent } from '../src/cache/cache-events.js';
import type { CacheEngine } from '../src/cache/cache-options.js';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { RecipeError } from '../src/internal-common/recipe-errors.js';
import { cacheView, expectCacheEqualsServer, recordEvents } from './cache-helpers.js';
import { type TestClient, useRealServer, watchBarrier } from './helpers.js';

const real = useRealServer({ clients: 2 });
const engines: CacheEngine[] = ['persistent-watch', 'one-shot-watches'];
const text = (data: Uint8Array | null | undefined) => (data ? Buffer.from(data).toString('utf8') : data);

describe.each(engines)('CuratorCache with the %s engine', (engine) => {
  const root = `/cache/${engine}`;

  it('loads an existing tree, then follows creates, changes and deletes made by another client', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    await writer.create(`${root}/a/x`, 'ax', { createParents: true });
    await writer.create(`${root}/b`, 'b');
    await using cache = new CuratorCache(observer, root, { engine });
    const lines = recordEvents(cache);
    await cache.start();
    expect(cache.engine).toBe(engine);
    expect(await cache.awaitInitialized({ timeoutMs: 10_000 })).toBe(true);
    expect([...lines].sort()).toEqual(
      ['created /a', 'created /a/x', 'created /b', 'created ', 'initialized']
        .map((l) => (l === 'created ' ? `created ${root}` : l.replace(' /', ` ${root}/`)))
        .sort(),
    );
    expect(text(cache.get(`${root}/a/x`)?.data)).toBe('ax');
    expect(cache.children(root).map((c) => c.path)).toEqual([`${root}/a`, `${root}/b`]);
    expect(cache.size).toBe(4);

    lines.length = 0;
    await writer.setData(`${root}/b`, 'b2');
    await writer.create(`${root}/a/y`, 'ay');
    await writer.create(`${root}/a/y/deep`, 'd');
    await writer.delete(`${root}/a/x`);
    await writer.create(`${root}/c`, null);
    await writer.setData(`${root}/c`, 'c1');
    await expectCacheEqualsServer(cache, writer);
    expect(lines).toContain(`changed ${root}/b`);
    expect(lines).toContain(`created ${root}/a/y/deep`);
    expect(lines).toContain(`deleted ${root}/a/x`);
    expect(lines.filter((l) => l === `created ${root}/c`)).toHaveLength(1);
    expect(lines).not.toContain(`changed ${root}`); // a children-only change is not a data change
    expect(text(cache.get(`${root}/b`)?.data)).toBe('b2');

    // Deleting the whole subtree, then re-creating the root.
    await writer.deleteRecursive(root);
    await expectCacheEqualsServer(cache, writer);
    expect(cache.size).toBe(0);
    await writer.create(root, 'again');
    await expectCacheEqualsServer(cache, writer);
    expect(text(cache.get(root)?.data)).toBe('again');
  });

  it('reports old and new node, and yields the same events through events()', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const path = `${root}-events`;
    await using cache = new CuratorCache(observer, path, { engine });
    const iterated: CacheEvent[] = [];
    const consumer = (async () => {
      for await (const event of cache.events({ bufferSize: 100 })) {
        iterated.push(event);
        if (event.type === 'deleted' && event.path === path) break;
      }
    })();
    const changes: [string, string][] = [];
    cache.on('changed', (oldData, data) =>
      changes.push([text(oldData.data) as string, text(data.data) as string]),
    );
    await cache.start();
    await cache.awaitInitialized();
    await writer.create(path, 'one');
    await eventually(() => cache.get(path) !== undefined);
    await writer.setData(path, 'two');
    await eventually(() => text(cache.get(path)?.data) === 'two');
    await writer.delete(path);
    await consumer;
    expect(changes).toEqual([['one', 'two']]);
    expect(iterated.map((e) => e.type)).toEqual(['initialized', 'created', 'changed', 'deleted']);
    const deleted = iterated[3];
    expect(deleted?.type === 'deleted' && text(deleted.oldData.data)).toBe('two');
  });

  it('single node, Stat only and depth 1 cache what they say', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const path = `${root}-options`;
    await writer.create(`${path}/k/deep`, 'x', { createParents: true });
    await writer.setData(path, 'top');
    await using single = new CuratorCache(observer, path, { engine, singleNode: true });
    await using statOnly = new CuratorCache(observer, path, { engine, keepData: false });
    await using oneLevel = new CuratorCache(observer, path, { engine, maxDepth: 1 });
    const statCreated: (string | null | undefined)[] = [];
    statOnly.on('created', (data) => statCreated.push(text(data.data)));
    for (const cache of [single, statOnly, oneLevel]) await cache.start();
    for (const cache of [single, statOnly, oneLevel]) await cache.awaitInitialized({ timeoutMs: 10_000 });
    await writer.create(`${path}/k2`, 'k2');
    await writer.create(`${path}/k/deep2`, 'd2');
    await writer.setData(path, 'top2');
    await eventually(
      () =>
        text(single.get(path)?.data) === 'top2' &&
        oneLevel.get(`${path}/k2`) !== undefined &&
        statOnly.get(`${path}/k/deep2`) !== undefined,
    );
    await watchBarrier([observer], writer, `${root}-barrier`);
    expect([...cacheView(single).keys()]).toEqual([path]);
    expect([...cacheView(oneLevel).keys()]).toEqual([path, `${path}/k`, `${path}/k2`]);
    expect(statOnly.size).toBe(5);
    expect(statOnly.get(path)?.data).toBeNull(); // stored without bytes...
    expect(statCreated).toContain('d2'); // ...but the event carried them
  });
});

describe('CuratorCache basics', () => {
  it('pipelines the initial load: many reads in flight at once, not one round trip per node', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/cache/pipelined';
    await writer.create(root, null);
    for (let i = 0; i < 5; i++) {
      await writer.create(`${root}/p${i}`, null);
      await Promise.all(Array.from({ length: 20 }, (_, j) => writer.create(`${root}/p${i}/c${j}`, `${j}`)));
    }
    let inFlight = 0;
    let most = 0;
    const counting = new Proxy(observer, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'getData' && property !== 'getChildren') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (...args: unknown[]) => {
          inFlight++;
          most = Math.max(most, inFlight);
          const call = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          const done = () => inFlight--;
          call.then(done, done);
          return call;
        };
      },
    });
    await using cache = new CuratorCache(counting, root);
    await cache.start();
    expect(await cache.awaitInitialized({ timeoutMs: 10_000 })).toBe(true);
    expect(cache.size).toBe(106);
    // Depth 2 under the root: a round-trip-per-node load would never have more than one read in flight.
    expect(most).toBeGreaterThanOrEqual(20);
  });

  it("'auto' uses the persistent watch on 3.8, and one-shot watches where the server refuses addWatch", async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/cache/auto';
    await writer.create(`${root}/a`, 'a', { createParents: true });
    await using modern = new CuratorCache(observer, root);
    await modern.start();
    expect(modern.engine).toBe('persistent-watch');
    // What a 3.5 server makes the client say about addWatch (UnsupportedByServerError); the rest is real.
    let refused = 0;
    const likeOld = new Proxy(observer, {
      get(target, property, receiver) {
        if (property === 'addWatch') {
          return () => {
            refused++;
            return Promise.reject(
              Object.assign(new Error('Requires ZooKeeper 3.6.0'), { code: 'UNSUPPORTEDBYSERVER' }),
            );
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await using old = new CuratorCache(likeOld, root);
    await old.start();
    expect(refused).toBe(1);
    expect(old.engine).toBe('one-shot-watches');
    await old.awaitInitialized({ timeoutMs: 10_000 });
    await writer.create(`${root}/b`, 'b');
    await expectCacheEqualsServer(old, writer);
    await expectCacheEqualsServer(modern, writer);
  });

  it('caches of different scopes on one path of one client all stay current (ZOOKEEPER-4466)', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/cache/same-path';
    await writer.create(`${root}/a/b`, 'x', { createParents: true });
    await using subtree = new CuratorCache(observer, root);
    await using single = new CuratorCache(observer, root, { singleNode: true });
    await using level = new CuratorCache(observer, root, { maxDepth: 1 });
    for (const cache of [subtree, single, level]) await cache.start();
    await writer.setData(`${root}/a/b`, 'y');
    await writer.setData(root, 'r');
    await writer.create(`${root}/c`, 'c');
    await expectCacheEqualsServer(subtree, writer);
    await eventually(() => text(single.get(root)?.data) === 'r' && level.get(`${root}/c`) !== undefined);
    expect(single.size).toBe(1);
    expect(level.get(`${root}/a/b`)).toBeUndefined();
  });

  it('refuses bad paths and options with a typed error before sending anything', async () => {
    let calls = 0;
    const spy = new Proxy(real.client(0), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls++;
          return value.apply(target, args);
        };
      },
    });
    const bad: [unknown, unknown][] = [
      ['relative', undefined],
      ['/trailing/', undefined],
      ['/a//b', undefined],
      [42, undefined],
      ['/ok', { singleNode: 'yes' }],
      ['/ok', { engine: 'magic' }],
      ['/ok', { maxDepth: -1 }],
      ['/ok', { singleNode: true, maxDepth: 2 }],
      ['/ok', { keepdata: false }],
      ['/ok', 'options'],
      ['/ok', { compression: 'zstd' }],
      ['/ok', { clearOnClose: 'no' }],
    ];
    for (const [path, options] of bad) {
      let caught: unknown;
      try {
        new CuratorCache(spy, path as string, options as never);
      } catch (error) {
        caught = error;
      }
      expect(RecipeError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
    }
    const cache = new CuratorCache(spy, '/ok');
    expect(() => cache.events({ bufferSize: 0 })).toThrow(/bufferSize/);
    await expect(cache.awaitInitialized({ timeoutMs: -1 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(calls).toBe(0);
    await cache.close();
  });

  it.each(engines)('close (%s) removes every watch and the connection listener', async (engine) => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = `/cache/close-${engine}`;
    await writer.create(`${root}/a/b`, null, { createParents: true });
    const listenersBefore = observer.listenerCount('state');
    const cache = new CuratorCache(observer, root, { engine });
    await cache.start();
    await cache.awaitInitialized();
    const watchedBefore = await real.server.fourLetterWord('wchp');
    expect(watchedBefore).toContain(root);
    const iteration = cache.events()[Symbol.asyncIterator]().next();
    await cache.close();
    expect(await iteration).toEqual({ value: undefined, done: true });
    expect(observer.listenerCount('state')).toBe(listenersBefore);
    expect(cache.size).toBe(0);
    await eventually(async () => !(await real.server.fourLetterWord('wchp')).includes(root));
    for (const path of [root, `${root}/a`, `${root}/a/b`]) {
      await expect(observer.checkWatches(path, 'any')).rejects.toMatchObject({ code: 'NOWATCHER' });
    }
  });

  it('with clearOnClose: false keeps the last state readable after close, no longer followed (DO_NOT_CLEAR_ON_CLOSE)', async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/cache/keep-on-close';
    await writer.create(`${root}/a`, 'a', { createParents: true });
    const cache = new CuratorCache(observer, root, { clearOnClose: false });
    await cache.start();
    await cache.awaitInitialized({ timeoutMs: 10_000 });
    await cache.close();
    await writer.setData(`${root}/a`, 'after-close');
    await writer.create(`${root}/b`, 'b');
    await watchBarrier([observer], writer, `${root}-barrier`);
    expect(cache.size).toBe(2);
    expect(text(cache.get(`${root}/a`)?.data)).toBe('a');
    expect(cache.get(`${root}/b`)).toBeUndefined();
    expect(cache.entries().map((entry) => entry.path)).toEqual([root, `${root}/a`]);
  });

  it("with compression: 'gzip' reads GZIP data, zero-length data as empty, and reports other data as BAD_DATA", async () => {
    const [observer, writer] = [real.client(0), real.client(1)] as [TestClient, TestClient];
    const root = '/cache/compressed';
    await writer.create(`${root}/zipped`, gzipSync('zipped'), { createParents: true });
    await writer.create(`${root}/plain`, 'plain');
    await using cache = new CuratorCache(observer, root, { compression: 'gzip' });
    const errors: unknown[] = [];
    cache.on('error', (error) => errors.push(error));
    await cache.start();
    await cache.awaitInitialized({ timeoutMs: 10_000 });
    expect(text(cache.get(`${root}/zipped`)?.data)).toBe('zipped');
    expect(text(cache.get(root)?.data)).toBe(''); // the parent the create made has no data
    // Not GZIP: kept as read, and reported with its path.
    expect(text(cache.get(`${root}/plain`)?.data)).toBe('plain');
    expect(errors).toEqual([
      expect.objectContaining({ code: 'BAD_DATA', message: expect.stringContaining(`${root}/plain`) }),
    ]);
    await writer.setData(`${root}/zipped`, gzipSync('zipped-2'));
    await eventually(() => text(cache.get(`${root}/zipped`)?.data) === 'zipped-2');
  });
});
