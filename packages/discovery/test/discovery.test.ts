/**
 * ServiceDiscovery, ServiceCache and ServiceProvider on a real ZooKeeper 3.8 server: the layout and create
 * modes, keeping a registration present (deletion by someone else, a reconnect, a session expiry), queries,
 * corrupt nodes reported and skipped, bad arguments refused before anything is sent, and closing that leaves
 * no watch on the server.
 */
import {
  type FaultProxy,
  fourLetterWord,
  startFaultProxy,
  startZooKeeper,
  type ZooKeeperServer,
} from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadInstanceDataError,
  IllegalDiscoveryStateError,
  InvalidDiscoveryArgumentError,
  ServiceNotRegisteredError,
} from '../src/errors.js';
import { serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance, type ServiceInstance } from '../src/service-instance.js';
import { eventually, expireSession, nextEvent, openClient } from './helpers.js';

const BASE = '/it/services';

/** Sessions (as 0x hex) watching each path, from the server's `wchp` report. */
async function watchersByPath(server: ZooKeeperServer): Promise<Map<string, string[]>> {
  const report = await fourLetterWord(server.host, server.port, 'wchp');
  const watchers = new Map<string, string[]>();
  let sessions: string[] = [];
  for (const line of report.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) sessions.push(line.trim());
    else watchers.set(line.trim(), (sessions = []));
  }
  return watchers;
}

/** Paths the session of `client` watches on the server. */
async function watchedBy(server: ZooKeeperServer, client: ZooKeeperClient): Promise<string[]> {
  const hex = `0x${client.sessionId.toString(16)}`;
  return [...(await watchersByPath(server)).entries()]
    .filter(([, sessions]) => sessions.includes(hex))
    .map(([path]) => path)
    .sort();
}

/** Wraps a client and records every method called on it (to prove nothing was sent). */
function recording(client: ZooKeeperClient): { client: ZooKeeperClient; calls: string[] } {
  const calls: string[] = [];
  const wrapped = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (!['on', 'off', 'once', 'emit', 'listenerCount'].includes(String(property)))
          calls.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { client: wrapped, calls };
}

const instance = (
  name: string,
  id: string,
  extra: Partial<Parameters<typeof createServiceInstance>[0]> = {},
) =>
  createServiceInstance({
    name,
    id,
    address: '127.0.0.1',
    port: 8000,
    uriSpec: '{scheme}://{address}:{port}',
    ...extra,
  });

describe('service discovery on a real server', () => {
  let server: ZooKeeperServer;
  let proxy: FaultProxy;
  const clients: ZooKeeperClient[] = [];

  async function client(options?: {
    autoRecreateSession?: boolean;
    viaProxy?: boolean;
  }): Promise<ZooKeeperClient> {
    const c = await openClient(options?.viaProxy ? proxy.connectString : server.connectString, options);
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    server = await startZooKeeper();
    proxy = await startFaultProxy({ host: server.host, port: server.port });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await proxy?.close();
    await server?.stop();
  });

  it('lays instances out as <base>/<name>/<id>: ephemeral for DYNAMIC, persistent for STATIC and PERMANENT', async () => {
    const zk = await client();
    const observer = await client();
    const discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const dynamic = instance('layout', 'dyn');
    const fixed = instance('layout', 'static', { serviceType: 'STATIC' });
    const permanent = instance('layout', 'perm', { serviceType: 'PERMANENT' });
    for (const i of [dynamic, fixed, permanent]) await discovery.registerService(i);

    const read = async (id: string) => observer.getData(`${BASE}/layout/${id}`);
    expect((await read('dyn')).stat.ephemeralOwner).toBe(zk.sessionId);
    expect((await read('static')).stat.ephemeralOwner).toBe(0n);
    expect((await read('perm')).stat.ephemeralOwner).toBe(0n);
    expect(Buffer.from((await read('dyn')).data).equals(Buffer.from(serializeInstance(dynamic)))).toBe(true);
    // The service node: empty (that it is a container is checked in container-parents.test.ts).
    expect((await observer.getData(`${BASE}/layout`)).data.length).toBe(0);

    expect(await watchedBy(server, zk)).toEqual([
      `${BASE}/layout/dyn`,
      `${BASE}/layout/perm`,
      `${BASE}/layout/static`,
    ]);
    await discovery.close(); // unregisters everything it registered, persistent ones too
    expect(await observer.getChildren(`${BASE}/layout`).catch(() => [])).toEqual([]);
    expect(await watchedBy(server, zk)).toEqual([]);
  });

  it('DYNAMIC_SEQUENTIAL: the node is <id><10 digits>; update and unregister act on that node', async () => {
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const seq = instance('seq', 'worker-', { serviceType: 'DYNAMIC_SEQUENTIAL' });
    await discovery.registerService(seq);
    const [name] = await zk.getChildren(`${BASE}/seq`);
    expect(name).toMatch(/^worker-\d{10}$/);
    await discovery.updateService(createServiceInstance({ ...seq, port: 9 }));
    const read = await discovery.queryForInstances('seq');
    expect(read.map((i) => i.port)).toEqual([9]);
    await discovery.unregisterService(seq);
    expect(await zk.getChildren(`${BASE}/seq`)).toEqual([]);
  });

  it('update writes the new instance; update of an unknown id and calls before start() or after close() are refused', async () => {
    const zk = await client();
    const discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await expect(discovery.registerService(instance('upd', 'a'))).rejects.toBeInstanceOf(
      IllegalDiscoveryStateError,
    );
    await discovery.start();
    await discovery.registerService(instance('upd', 'a'));
    await discovery.updateService(instance('upd', 'a', { port: 8001, payload: { v: 2 } }));
    const read = await discovery.queryForInstance('upd', 'a');
    expect([read?.port, read?.payload]).toEqual([8001, { v: 2 }]);
    await expect(discovery.updateService(instance('upd', 'other'))).rejects.toBeInstanceOf(
      ServiceNotRegisteredError,
    );
    await discovery.unregisterService('a');
    expect(await discovery.queryForInstance('upd', 'a')).toBeNull();
    await discovery.unregisterService('never-registered'); // nothing, as in Curator
    await discovery.close();
    await expect(discovery.queryForNames()).rejects.toBeInstanceOf(IllegalDiscoveryStateError);
  });

  it('refuses bad arguments with typed errors before anything is sent', async () => {
    const { client: zk, calls } = recording(await client());
    expect(() => new ServiceDiscovery(zk, { basePath: 'relative' })).toThrow(InvalidDiscoveryArgumentError);
    expect(() => new ServiceDiscovery(zk, { basePath: '/a/' })).toThrow(InvalidDiscoveryArgumentError);
    const discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    const bad: ServiceInstance[] = [
      { ...instance('ok', 'x'), name: 'a/b' },
      { ...instance('ok', 'x'), id: 'a/b' },
      { ...instance('ok', 'x'), port: 70_000 },
      { ...instance('ok', 'x'), payload: cyclic as never },
      { ...instance('ok', 'x'), payload: { f: (() => 1) as never } },
    ];
    for (const i of bad) {
      await expect(discovery.registerService(i)).rejects.toBeInstanceOf(InvalidDiscoveryArgumentError);
    }
    await expect(discovery.queryForInstances('a/b')).rejects.toBeInstanceOf(InvalidDiscoveryArgumentError);
    await expect(discovery.queryForInstance('ok', '..')).rejects.toBeInstanceOf(
      InvalidDiscoveryArgumentError,
    );
    await expect(discovery.registerService(instance('ok', 'x'), { timeoutMs: -1 })).rejects.toBeInstanceOf(
      InvalidDiscoveryArgumentError,
    );
    expect(() => discovery.serviceCache('a/b')).toThrow(InvalidDiscoveryArgumentError);
    expect(() => discovery.serviceProvider({ serviceName: 'ok', strategy: 'fastest' as never })).toThrow(
      InvalidDiscoveryArgumentError,
    );
    expect(calls).toEqual([]);
    await discovery.close();
  });

  it('takes timeoutMs and an AbortSignal: an aborted call sends nothing; a start that times out leaves no watch', async () => {
    const { client: zk, calls } = recording(await client());
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const reason = new Error('stop');
    await expect(
      discovery.registerService(instance('aborted', 'x'), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    await expect(discovery.queryForInstances('aborted', { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(calls).toEqual([]);

    const slow = await client({ viaProxy: true });
    await using slowDiscovery = new ServiceDiscovery(slow, { basePath: BASE });
    await slowDiscovery.start();
    const cache = slowDiscovery.serviceCache('slow');
    proxy.delay(400); // every byte 400 ms late both ways: the start cannot finish in 200 ms
    await expect(cache.start({ timeoutMs: 200 })).rejects.toMatchObject({ code: 'OPERATIONTIMEOUT' });
    proxy.delay(0);
    await eventually(async () => (await watchedBy(server, slow)).length === 0 && slow.state === 'connected');
    expect(slow.listenerCount('state')).toBe(1); // the discovery's own; the cache removed its listener
  });

  it('re-registers an instance deleted by someone else', async () => {
    const zk = await client();
    const other = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    await discovery.registerService(instance('deleted', 'comes-back'));
    const path = `${BASE}/deleted/comes-back`;
    const first = await other.exists(path);
    await other.delete(path);
    await eventually(async () => {
      const stat = await other.exists(path);
      return stat !== null && stat.czxid !== first?.czxid;
    });
    expect((await other.exists(path))?.ephemeralOwner).toBe(zk.sessionId);
  });

  it('watchInstances: an edit of our node by someone else is adopted and survives re-registration', async () => {
    const zk = await client();
    const operator = await client();
    await using adopting = new ServiceDiscovery(zk, { basePath: BASE, watchInstances: true });
    await using plain = new ServiceDiscovery(zk, { basePath: BASE });
    await adopting.start();
    await plain.start();
    await adopting.registerService(instance('edited', 'adopts', { port: 1 }));
    await plain.registerService(instance('edited', 'ignores', { port: 1 }));

    for (const id of ['adopts', 'ignores']) {
      const edit = serializeInstance(instance('edited', id, { port: 2, enabled: false }), {
        writeEnabled: true,
      });
      await operator.setData(`${BASE}/edited/${id}`, edit);
    }
    await eventually(() => adopting.registeredInstances()[0]?.port === 2);
    expect(adopting.registeredInstances()[0]?.enabled).toBe(false);
    expect(plain.registeredInstances()[0]?.port).toBe(1);

    // Deleted by someone else: each comes back with its own copy, the edit kept only where it was adopted.
    for (const id of ['adopts', 'ignores']) {
      const before = await operator.exists(`${BASE}/edited/${id}`);
      await operator.delete(`${BASE}/edited/${id}`);
      await eventually(async () => {
        const stat = await operator.exists(`${BASE}/edited/${id}`);
        return stat !== null && stat.czxid !== before?.czxid;
      });
    }
    const ports = await plain.queryForInstances('edited');
    expect(ports.map((i) => [i.id, i.port])).toEqual([
      ['adopts', 2],
      ['ignores', 1],
    ]);
  });

  it('after a plain reconnect keeps its node as it is (no delete and create); after an expiry makes it again', async () => {
    const zk = await client({ viaProxy: true, autoRecreateSession: true });
    const observer = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    const errors: unknown[] = [];
    discovery.on('error', (error) => errors.push(error));
    await discovery.start();
    await discovery.registerService(instance('steady', 'one'));
    const path = `${BASE}/steady/one`;
    const before = await observer.exists(path);

    const suspended = nextEvent(zk, 'state');
    proxy.cut();
    expect(await suspended).toEqual(['suspended']);
    await eventually(() => zk.state === 'connected');
    // Operations on one registration run in order: this update runs after the reconnect's check.
    await discovery.updateService(instance('steady', 'one'));
    expect((await observer.exists(path))?.czxid).toBe(before?.czxid);

    const oldSession = zk.sessionId;
    await expireSession(server.connectString, zk);
    await eventually(async () => {
      const stat = await observer.exists(path);
      return stat !== null && stat.ephemeralOwner === zk.sessionId && zk.sessionId !== oldSession;
    });
    expect(
      errors.filter((e) => !(e as { code?: string }).code?.match(/CONNECTIONLOSS|SESSIONEXPIRED/)),
    ).toEqual([]);
  });

  it('queries: names, instances (a corrupt node skipped and reported with its path), one instance', async () => {
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    await discovery.registerService(instance('query', 'good', { payload: { a: 1 } }));
    await zk.create(`${BASE}/query/corrupt`, '{not json', { mode: 'ephemeral' });
    expect(await discovery.queryForNames()).toContain('query');
    const errors: unknown[] = [];
    discovery.on('error', (error) => errors.push(error));
    const found = await discovery.queryForInstances('query');
    expect(found.map((i) => i.id)).toEqual(['good']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(BadInstanceDataError);
    expect((errors[0] as BadInstanceDataError).path).toBe(`${BASE}/query/corrupt`);
    await expect(discovery.queryForInstance('query', 'corrupt')).rejects.toBeInstanceOf(BadInstanceDataError);
    expect(await discovery.queryForInstance('query', 'missing')).toBeNull();
    expect(await discovery.queryForInstances('no-such-service')).toEqual([]);
    await zk.delete(`${BASE}/query/corrupt`);
  });

  it('ServiceCache: loads with every read in flight together, follows changes, skips a corrupt node, iterates', async () => {
    const zk = await client();
    const writerClient = await client();
    const writer = new ServiceDiscovery(writerClient, { basePath: BASE });
    await writer.start();
    for (const id of ['a', 'b', 'c', 'd']) await writer.registerService(instance('cached', id));
    await writerClient.create(`${BASE}/cached/zz-corrupt`, '[]', { mode: 'ephemeral' });

    // Record when each getData was sent and when it settled: all must be sent before the first settles.
    const order: string[] = [];
    const tracked = new Proxy(zk, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'getData' || typeof value !== 'function')
          return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => {
          order.push('sent');
          const result = value.apply(target, args) as Promise<unknown>;
          result.then(
            () => order.push('settled'),
            () => order.push('settled'),
          );
          return result;
        };
      },
    });
    const stateListeners = zk.listenerCount('state');
    const discovery = new ServiceDiscovery(tracked, { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('cached');
    const errors: BadInstanceDataError[] = [];
    cache.on('error', (error) => errors.push(error as BadInstanceDataError));
    await cache.start();
    expect(order.slice(0, 5)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(cache.instances().map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(errors.map((e) => e.path)).toEqual([`${BASE}/cached/zz-corrupt`]);

    const iterator = cache[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.map((i: ServiceInstance) => i.id)).toEqual(['a', 'b', 'c', 'd']);
    await writer.unregisterService('b');
    expect((await iterator.next()).value?.map((i: ServiceInstance) => i.id)).toEqual(['a', 'c', 'd']);
    await writer.updateService(instance('cached', 'a', { port: 9999 }));
    const updated = (await iterator.next()).value as ServiceInstance[];
    expect(updated.find((i) => i.id === 'a')?.port).toBe(9999);
    // The corrupt node repaired by its writer appears.
    await writerClient.setData(
      `${BASE}/cached/zz-corrupt`,
      serializeInstance(instance('cached', 'zz-corrupt')),
    );
    expect((await iterator.next()).value?.map((i: ServiceInstance) => i.id)).toEqual([
      'a',
      'c',
      'd',
      'zz-corrupt',
    ]);
    await writerClient.delete(`${BASE}/cached/zz-corrupt`);
    expect((await iterator.next()).value?.map((i: ServiceInstance) => i.id)).toEqual(['a', 'c', 'd']);

    expect((await watchedBy(server, zk)).length).toBeGreaterThan(0);
    await discovery.close(); // closes the cache it made
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(await watchedBy(server, zk)).toEqual([]);
    expect(zk.listenerCount('state')).toBe(stateListeners);
    await writer.close();
  });

  it('ServiceCache closed in the middle of its load, or of a refresh, leaves no watch behind', async () => {
    const zk = await client();
    const writerClient = await client();
    await using writer = new ServiceDiscovery(writerClient, { basePath: BASE });
    await writer.start();
    for (let i = 0; i < 20; i++) await writer.registerService(instance('racing', `r-${i}`));
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();

    // Closed right after its first instance read went out: the other reads and the child watch are in flight.
    let closing: Promise<void> | undefined;
    let early: ReturnType<ServiceDiscovery['serviceCache']> | undefined;
    const closesOnFirstRead = new Proxy(zk, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (property !== 'getData') return value.bind(target);
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          closing ??= early?.close();
          return result;
        };
      },
    });
    await using racingDiscovery = new ServiceDiscovery(closesOnFirstRead, { basePath: BASE });
    await racingDiscovery.start();
    early = racingDiscovery.serviceCache('racing');
    await expect(early.start()).rejects.toBeInstanceOf(IllegalDiscoveryStateError);
    await closing;
    expect(await watchedBy(server, zk)).toEqual([]);

    const late = discovery.serviceCache('racing');
    await late.start();
    const refreshed = nextEvent(late, 'changed');
    await writer.registerService(instance('racing', 'r-new')); // a child event: a relist and a read go out
    await refreshed;
    await writer.registerService(instance('racing', 'r-newer'));
    await late.close(); // while that refresh may be in flight
    expect(await watchedBy(server, zk)).toEqual([]);
  });

  it('ServiceCache after its session expires: rebuilt on the new session, events only for what really changed', async () => {
    const zk = await client({ autoRecreateSession: true });
    const writerClient = await client();
    await using writer = new ServiceDiscovery(writerClient, { basePath: BASE });
    await writer.start();
    await writer.registerService(instance('rebuilt', 'stays'));
    await writer.registerService(instance('rebuilt', 'leaves'));
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('rebuilt');
    await cache.start();
    const changes: string[][] = [];
    cache.on('changed', (instances) => changes.push(instances.map((i) => i.id)));

    const oldSession = zk.sessionId;
    await expireSession(server.connectString, zk);
    await writer.unregisterService('leaves'); // while the cache's session is gone or being replaced
    await eventually(() => zk.sessionId !== oldSession && zk.state === 'connected');
    await eventually(() => cache.instances().length === 1);
    expect(cache.instances().map((i) => i.id)).toEqual(['stays']);
    await writer.registerService(instance('rebuilt', 'arrives'));
    await eventually(() => cache.instances().length === 2);
    // One event for the departure, one for the arrival: the unchanged instance caused none.
    expect(changes).toEqual([['stays'], ['arrives', 'stays']]);
  });

  it('ServiceCache across a dropped connection: what changed while it was away arrives after the reconnect', async () => {
    const zk = await client({ viaProxy: true });
    const writerClient = await client();
    await using writer = new ServiceDiscovery(writerClient, { basePath: BASE });
    await writer.start();
    await writer.registerService(instance('away', 'kept'));
    await writer.registerService(instance('away', 'removed'));
    await writer.registerService(instance('away', 'changed'));
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('away');
    await cache.start();

    proxy.refuse(true);
    const suspended = nextEvent(zk, 'state');
    proxy.cut();
    await suspended;
    await writer.unregisterService('removed');
    await writer.updateService(instance('away', 'changed', { port: 1234 }));
    await writer.registerService(instance('away', 'added'));
    proxy.refuse(false);

    await eventually(() => cache.instances().length === 3 && cache.instances().some((i) => i.port === 1234));
    expect(cache.instances().map((i) => [i.id, i.port])).toEqual([
      ['added', 8000],
      ['changed', 1234],
      ['kept', 8000],
    ]);
  });

  it('ServiceProvider: strategies over the live list, enabled and filters, noteError takes an instance out', async () => {
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    for (const id of ['p1', 'p2', 'p3'])
      await discovery.registerService(instance('provided', id, { port: 8000 + Number(id[1]) }));
    await discovery.registerService(instance('provided', 'off', { enabled: false }));
    const provider = discovery.serviceProvider({ serviceName: 'provided', filters: [(i) => i.id !== 'p3'] });
    await provider.start();
    // "enabled" is not written by the default serializer: Curator's readers read it as true, and so do we.
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['off', 'p1', 'p2']);
    const picks = [1, 2, 3].map(() => provider.getInstance()?.id);
    expect(picks).toEqual(['off', 'p1', 'p2']);

    // A corrupt node written by someone else: reported with its path, skipped, the provider carries on.
    const errors: unknown[] = [];
    provider.on('error', (error) => errors.push(error));
    await zk.create(`${BASE}/provided/garbage`, Buffer.from([0xff, 0xfe, 0x00]), { mode: 'ephemeral' });
    await eventually(() => errors.length === 1);
    expect((errors[0] as BadInstanceDataError).path).toBe(`${BASE}/provided/garbage`);
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['off', 'p1', 'p2']);

    const p1 = provider.getAllInstances().find((i) => i.id === 'p1') as ServiceInstance;
    provider.noteError(p1);
    expect(provider.getAllInstances().map((i) => i.id)).toContain('p1');
    provider.noteError(p1);
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['off', 'p2']);

    const writesEnabled = new ServiceDiscovery(zk, { basePath: BASE, serializer: { writeEnabled: true } });
    await writesEnabled.start();
    await writesEnabled.registerService(instance('provided', 'really-off', { enabled: false }));
    const sticky = discovery.serviceProvider({ serviceName: 'provided', strategy: 'sticky' });
    await sticky.start();
    expect(sticky.getAllInstances().map((i) => i.id)).not.toContain('really-off');
    const stuck = sticky.getInstance()?.id;
    expect([sticky.getInstance()?.id, sticky.getInstance()?.id]).toEqual([stuck, stuck]);
    await writesEnabled.close();
    await provider.close();
    expect(() => provider.getInstance()).toThrow(IllegalDiscoveryStateError);
  });
});
