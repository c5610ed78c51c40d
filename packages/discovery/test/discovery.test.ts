/**
 * ServiceDiscovery on a real ZooKeeper 3.8 server: the layout and create modes, keeping a registration present
 * (deletion by someone else, a reconnect, a session expiry), queries, corrupt nodes reported and skipped, bad
 * arguments refused before anything is sent, and closing that leaves no watch on the server. ServiceCache and
 * ServiceProvider are in service-cache.test.ts.
 */
import { eventually, nextEvent } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import {
  BadInstanceDataError,
  IllegalDiscoveryStateError,
  InvalidDiscoveryArgumentError,
  ServiceNotRegisteredError,
} from '../src/errors.js';
import { serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance, type ServiceInstance } from '../src/service-instance.js';
import { BASE, discoveryServer, instance, recording, watchedBy } from './discovery-fixture.js';
import { expireSession } from './helpers.js';

describe('service discovery on a real server', () => {
  const env = discoveryServer();
  const client = env.client;

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

    expect(await watchedBy(env.server, zk)).toEqual([
      `${BASE}/layout/dyn`,
      `${BASE}/layout/perm`,
      `${BASE}/layout/static`,
    ]);
    await discovery.close(); // unregisters everything it registered, persistent ones too
    expect(await observer.getChildren(`${BASE}/layout`).catch(() => [])).toEqual([]);
    expect(await watchedBy(env.server, zk)).toEqual([]);
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
    env.proxy.delay(400); // every byte 400 ms late both ways: the start cannot finish in 200 ms
    await expect(cache.start({ timeoutMs: 200 })).rejects.toMatchObject({ code: 'OPERATIONTIMEOUT' });
    env.proxy.delay(0);
    await eventually(
      async () => (await watchedBy(env.server, slow)).length === 0 && slow.state === 'connected',
    );
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
    env.proxy.cut();
    expect(await suspended).toEqual(['suspended']);
    await eventually(() => zk.state === 'connected');
    // Operations on one registration run in order: this update runs after the reconnect's check.
    await discovery.updateService(instance('steady', 'one'));
    expect((await observer.exists(path))?.czxid).toBe(before?.czxid);

    const oldSession = zk.sessionId;
    await expireSession(env.server.connectString, zk);
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
});
