/**
 * ServiceCache and ServiceProvider on a real ZooKeeper 3.8 server: a cache that loads with its reads in flight
 * together and follows changes, skips corrupt nodes, leaves no watch behind when closed at any point, and is
 * rebuilt after an expiry or a dropped connection; a provider's strategies, filters and error accounting.
 */
import { eventually, nextEvent } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { type BadInstanceDataError, IllegalDiscoveryStateError } from '../src/errors.js';
import { serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import type { ServiceInstance } from '../src/service-instance.js';
import { BASE, discoveryServer, instance, registeringWriter, watchedBy } from './discovery-fixture.js';
import { expireSession } from './helpers.js';

describe('service cache and provider on a real server', () => {
  const env = discoveryServer();
  const client = env.client;

  it('ServiceCache: loads with every read in flight together, follows changes, skips a corrupt node, iterates', async () => {
    const zk = await client();
    const writerClient = await client();
    const writer = await registeringWriter(writerClient, 'cached', ['a', 'b', 'c', 'd']);
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

    expect((await watchedBy(env.server, zk)).length).toBeGreaterThan(0);
    await discovery.close(); // closes the cache it made
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(await watchedBy(env.server, zk)).toEqual([]);
    expect(zk.listenerCount('state')).toBe(stateListeners);
    await writer.close();
  });

  it('ServiceCache closed in the middle of its load, or of a refresh, leaves no watch behind', async () => {
    const zk = await client();
    const writerClient = await client();
    const ids = Array.from({ length: 20 }, (_, i) => `r-${i}`);
    await using writer = await registeringWriter(writerClient, 'racing', ids);
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
    expect(await watchedBy(env.server, zk)).toEqual([]);

    const late = discovery.serviceCache('racing');
    await late.start();
    const refreshed = nextEvent(late, 'changed');
    await writer.registerService(instance('racing', 'r-new')); // a child event: a relist and a read go out
    await refreshed;
    await writer.registerService(instance('racing', 'r-newer'));
    await late.close(); // while that refresh may be in flight
    expect(await watchedBy(env.server, zk)).toEqual([]);
  });

  it('ServiceCache after its session expires: rebuilt on the new session, events only for what really changed', async () => {
    const zk = await client({ autoRecreateSession: true });
    const writerClient = await client();
    await using writer = await registeringWriter(writerClient, 'rebuilt', ['stays', 'leaves']);
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('rebuilt');
    await cache.start();
    const changes: string[][] = [];
    cache.on('changed', (instances) => changes.push(instances.map((i) => i.id)));

    const oldSession = zk.sessionId;
    await expireSession(env.server.connectString, zk);
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
    await using writer = await registeringWriter(writerClient, 'away', ['kept', 'removed', 'changed']);
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('away');
    await cache.start();

    env.proxy.refuse(true);
    const suspended = nextEvent(zk, 'state');
    env.proxy.cut();
    await suspended;
    await writer.unregisterService('removed');
    await writer.updateService(instance('away', 'changed', { port: 1234 }));
    await writer.registerService(instance('away', 'added'));
    env.proxy.refuse(false);

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
