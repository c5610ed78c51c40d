/**
 * Interop with real curator-x-discovery (5.9.0 by default; scripts/test-curator.sh also runs it on Debian's
 * 5.4.0) on one real server, both ways: the bytes of an instance are Curator's byte for byte, UriSpecs build
 * the same; a Java service is found by Node with its payload; a Node service is found by Java's
 * ServiceDiscovery and ServiceProvider with its payload deserialized (a Map, and a payload class named by
 * "@class"); an instance that dies (session closed or expired) leaves the other side's cache.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDiscoveryArgumentError } from '../src/errors.js';
import { deserializeInstance, serializeInstance } from '../src/instance-serializer.js';
import { ServiceDiscovery } from '../src/service-discovery.js';
import {
  buildUri,
  createServiceInstance,
  type ServiceInstance,
  type ServiceType,
} from '../src/service-instance.js';
import { expireSession, expireSessionById, openClient } from './helpers.js';
import { type DiscoveryDriver, startDiscoveryDriver } from './java/discovery-driver.js';

const BASE = '/interop/services';

/** What the Java driver reports for an instance (DiscoveryDriver.describe). */
interface JavaView {
  name: string;
  id: string;
  address: string | null;
  port: number | null;
  payloadClass: string | null;
  payload: unknown;
  serviceType: string;
  enabled: boolean;
  uri: string;
}

/** The same instance as the driver's `instance(...)` builds it, made on our side. */
function ourTwin(kind: string, time: number, type: ServiceType): ServiceInstance {
  const base = {
    name: 'orders',
    id: 'id-1',
    address: '10.0.0.5',
    port: 8080,
    registrationTimeUTC: time,
    serviceType: type,
  };
  const uriSpec = '{scheme}://{address}:{port}';
  switch (kind) {
    case 'map':
      return createServiceInstance({
        ...base,
        uriSpec,
        payload: { zone: 'eu-1' },
        payloadClass: 'java.util.ImmutableCollections$Map1',
      });
    case 'linked':
      return createServiceInstance({ ...base, uriSpec, payload: { zone: 'eu-1', weight: 3 } });
    case 'details':
      return createServiceInstance({
        ...base,
        uriSpec,
        payload: { zone: 'eu-1', weight: 7 },
        payloadClass: 'Details',
      });
    case 'long':
      return createServiceInstance({ ...base, uriSpec, payload: 5, payloadClass: 'java.lang.Long' });
    case 'list':
      return createServiceInstance({ ...base, uriSpec, payload: ['a', 'b'] });
    case 'string':
      return createServiceInstance({ ...base, uriSpec, payload: 'text' });
    case 'int':
      return createServiceInstance({ ...base, uriSpec, payload: 42 });
    default:
      return createServiceInstance({ ...base, uriSpec, payload: null });
  }
}

describe('interop with curator-x-discovery (real server)', () => {
  let server: ZooKeeperServer;
  let java: DiscoveryDriver;
  const clients: ZooKeeperClient[] = [];

  async function client(options?: { autoRecreateSession?: boolean }): Promise<ZooKeeperClient> {
    const c = await openClient(server.connectString, options);
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    server = await startZooKeeper();
    java = await startDiscoveryDriver(server.connectString, BASE);
  });

  afterAll(async () => {
    await java?.close();
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await server?.stop();
  });

  it("writes exactly the bytes of Curator's JsonInstanceSerializer, and reads them back to the same bytes", async () => {
    const time = 1_795_558_400_154;
    for (const kind of ['map', 'linked', 'details', 'long', 'list', 'string', 'int', 'none']) {
      for (const type of ['DYNAMIC', 'STATIC'] as const) {
        for (const compatible of [true, false]) {
          const javaBytes = Buffer.from(
            await java.call(
              'serialize',
              'orders',
              'id-1',
              '10.0.0.5',
              8080,
              kind,
              time,
              type,
              String(compatible),
            ),
            'base64',
          );
          const ours = Buffer.from(
            serializeInstance(ourTwin(kind, time, type), { writeEnabled: !compatible }),
          );
          expect(ours.toString('utf8'), `${kind} ${type} compatible=${compatible}`).toBe(
            javaBytes.toString('utf8'),
          );
          const roundTrip = serializeInstance(deserializeInstance(javaBytes, '/x'), {
            writeEnabled: !compatible,
          });
          expect(Buffer.from(roundTrip).equals(javaBytes)).toBe(true);
        }
      }
    }
    // The sample, byte for byte.
    expect(Buffer.from(serializeInstance(ourTwin('map', time, 'DYNAMIC'))).toString('utf8')).toBe(
      '{"name":"orders","id":"id-1","address":"10.0.0.5","port":8080,"sslPort":null,"payload":{"@class":"java.util.ImmutableCollections$Map1","zone":"eu-1"},"registrationTimeUTC":1795558400154,"serviceType":"DYNAMIC","uriSpec":{"parts":[{"value":"scheme","variable":true},{"value":"://","variable":false},{"value":"address","variable":true},{"value":":","variable":false},{"value":"port","variable":true}]}}',
    );
  });

  it("builds UriSpecs as Curator's UriSpec does, and refuses the specs it refuses", async () => {
    const specs = [
      '{scheme}://{address}:{port}',
      '{scheme}://{address}:{ssl-port}/{ unknown }{[}x{]}{service-type}',
      '{name}/{id}@{registration-time-utc} {}{ } literal',
      'no variables at all',
      '{a{b}}',
      'a}b',
      '{open',
    ];
    for (const spec of specs) {
      for (const sslPort of [null, 443]) {
        const encoded = Buffer.from(spec).toString('base64');
        const javaResult = await java.call('uri', encoded, String(sslPort)).then(
          (text) => Buffer.from(text, 'base64').toString('utf8'),
          (error: Error) => error,
        );
        const ours = (() => {
          try {
            const i = createServiceInstance({
              name: 'orders',
              id: 'id-1',
              address: '10.0.0.5',
              port: 8080,
              sslPort,
              registrationTimeUTC: 1_795_558_400_154,
              serviceType: 'DYNAMIC_SEQUENTIAL',
              uriSpec: spec,
            });
            return buildUri(i);
          } catch (error) {
            return error as Error;
          }
        })();
        if (javaResult instanceof Error) {
          expect(javaResult.message, spec).toMatch(/IllegalStateException/);
          expect(ours, spec).toBeInstanceOf(InvalidDiscoveryArgumentError);
        } else {
          expect(ours, `${spec} sslPort=${sslPort}`).toBe(javaResult);
        }
      }
    }
  });

  it('finds a Java service with its payload: queries, a cache and a provider', async () => {
    await java.call('register', 'billing', 'java-map', '10.1.0.1', 9001, 'map');
    await java.call('register', 'billing', 'java-details', '10.1.0.2', 9002, 'details');
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    expect(await discovery.queryForNames()).toContain('billing');
    const found = await discovery.queryForInstances('billing');
    expect(found.map((i) => [i.id, i.address, i.port, i.payload, i.payloadClass])).toEqual([
      ['java-details', '10.1.0.2', 9002, { zone: 'eu-1', weight: 7 }, 'Details'],
      ['java-map', '10.1.0.1', 9001, { zone: 'eu-1' }, 'java.util.ImmutableCollections$Map1'],
    ]);
    const one = await discovery.queryForInstance('billing', 'java-map');
    expect(one?.uriSpec?.build(one)).toBe('http://10.1.0.1:9001');
    expect(one?.serviceType).toBe('DYNAMIC');

    const cache = discovery.serviceCache('billing');
    await cache.start();
    expect(cache.instances().map((i) => i.id)).toEqual(['java-details', 'java-map']);
    const provider = discovery.serviceProvider({ serviceName: 'billing' });
    await provider.start();
    const picks = [provider.getInstance()?.id, provider.getInstance()?.id];
    expect(picks.sort()).toEqual(['java-details', 'java-map']);

    await java.call('unregister', 'billing', 'java-map');
    await eventually(() => cache.instances().length === 1);
    expect(cache.instances()[0]?.id).toBe('java-details');
    await java.call('unregister', 'billing', 'java-details');
    await eventually(() => cache.instances().length === 0);
    expect(provider.getInstance()).toBeUndefined();
  });

  it("registers a Node service that Java's ServiceDiscovery and ServiceProvider find, payloads deserialized", async () => {
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const plain = createServiceInstance({
      name: 'search',
      id: 'node-map',
      address: '10.2.0.1',
      port: 7001,
      payload: { zone: 'eu-2', tags: ['a', 'b'] },
      uriSpec: '{scheme}://{address}:{port}',
    });
    const typed = createServiceInstance({
      name: 'search-typed',
      id: 'node-details',
      address: '10.2.0.2',
      port: 7002,
      payload: { zone: 'eu-3', weight: 11 },
      payloadClass: 'Details',
      uriSpec: '{scheme}://{address}:{port}',
    });
    await discovery.registerService(plain);
    await discovery.registerService(typed);

    const raw = Buffer.from(await java.call('raw', `${BASE}/search/node-map`), 'base64');
    expect(raw.equals(Buffer.from(serializeInstance(plain)))).toBe(true);
    const stat = await zk.exists(`${BASE}/search/node-map`);
    expect(stat?.ephemeralOwner).toBe(zk.sessionId);

    const maps = await java.json<JavaView[]>('query-map', 'search');
    expect(maps).toEqual([
      {
        name: 'search',
        id: 'node-map',
        address: '10.2.0.1',
        port: 7001,
        sslPort: null,
        payloadClass: 'java.util.LinkedHashMap',
        payload: { zone: 'eu-2', tags: ['a', 'b'] },
        serviceType: 'DYNAMIC',
        enabled: true,
        uri: 'http://10.2.0.1:7001',
      },
    ]);
    const details = await java.json<JavaView[]>('query-details', 'search-typed');
    expect(details.map((d) => [d.id, d.payloadClass, d.payload])).toEqual([
      ['node-details', 'Details', { zone: 'eu-3', weight: 11 }],
    ]);

    await java.call('provider-start', 'search');
    const picked = await java.json<JavaView>('provider-get', 'search');
    expect([picked.id, picked.payload]).toEqual(['node-map', { zone: 'eu-2', tags: ['a', 'b'] }]);

    // An instance written with "enabled":false (Curator's non-compatible serializer) is left out by Java's provider.
    const writesEnabled = new ServiceDiscovery(zk, { basePath: BASE, serializer: { writeEnabled: true } });
    await writesEnabled.start();
    await writesEnabled.registerService(
      createServiceInstance({ name: 'search', id: 'node-off', address: 'h', port: 1, enabled: false }),
    );
    const javaSees = await java.json<JavaView[]>('query-map', 'search');
    expect(javaSees.map((i) => [i.id, i.enabled])).toEqual([
      ['node-map', true],
      ['node-off', false],
    ]);
    await eventually(
      async () =>
        (await java.json<JavaView[]>('provider-all', 'search')).map((i) => i.id).join() === 'node-map',
    );
    await writesEnabled.close();

    await discovery.unregisterService(plain);
    await eventually(async () => (await java.call('provider-all', 'search')) === '[]');
    expect(await java.call('query-map', 'search')).toBe('[]');
  });

  it('keeps the @class of a payload read from Java: written back by Node, Java still reads its payload class', async () => {
    await java.call('register', 'relay', 'java-origin', '10.3.0.1', 6001, 'details');
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    const fromJava = await discovery.queryForInstance('relay', 'java-origin');
    expect(fromJava?.payloadClass).toBe('Details');
    // Node re-publishes it under another id and name: Java's ServiceDiscovery<Details> must still read it.
    await discovery.registerService(
      createServiceInstance({ ...(fromJava as ServiceInstance), name: 'relay-copy', id: 'node-copy' }),
    );
    const copy = await java.json<JavaView>('query-one-details', 'relay-copy', 'node-copy');
    expect([copy.payloadClass, copy.payload, copy.address, copy.port]).toEqual([
      'Details',
      { zone: 'eu-1', weight: 7 },
      '10.3.0.1',
      6001,
    ]);
    await java.call('unregister', 'relay', 'java-origin');
  });

  it("a Node instance whose session is closed, or expires, leaves Java's ServiceCache", async () => {
    await java.call('cache-start', 'mortal');
    const closing = await client();
    const expiring = await client();
    const a = new ServiceDiscovery(closing, { basePath: BASE });
    const b = new ServiceDiscovery(expiring, { basePath: BASE });
    await a.start();
    await b.start();
    await a.registerService(
      createServiceInstance({ name: 'mortal', id: 'closed-one', address: 'h', port: 1 }),
    );
    await b.registerService(
      createServiceInstance({ name: 'mortal', id: 'expired-one', address: 'h', port: 2 }),
    );
    await eventually(async () => (await java.call('cache-ids', 'mortal')) === 'closed-one,expired-one');

    await closing.close(); // closeSession: the server deletes its ephemerals at once
    await eventually(async () => (await java.call('cache-ids', 'mortal')) === 'expired-one');

    await expireSession(server.connectString, expiring);
    await eventually(async () => (await java.call('cache-ids', 'mortal')) === '');
    await a.close().catch(() => {});
    await b.close().catch(() => {});
  });

  it("re-registers a Node instance on the new session after an expiry; Java's cache sees it come back", async () => {
    await java.call('cache-start', 'phoenix');
    const zk = await client({ autoRecreateSession: true });
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    await discovery.registerService(
      createServiceInstance({ name: 'phoenix', id: 'rises', address: 'h', port: 3 }),
    );
    await eventually(async () => (await java.call('cache-ids', 'phoenix')) === 'rises');
    const before = zk.sessionId;

    await expireSession(server.connectString, zk);
    // The old session's ephemeral went with it; the new session made it again.
    await eventually(async () => {
      const stat = await zk.exists(`${BASE}/phoenix/rises`).catch(() => null);
      return stat !== null && stat.ephemeralOwner === zk.sessionId && zk.sessionId !== before;
    });
    await eventually(async () => (await java.call('cache-ids', 'phoenix')) === 'rises');
    const seen = await java.json<JavaView[]>('query-object', 'phoenix');
    expect(seen.map((i) => [i.id, i.port])).toEqual([['rises', 3]]);
  });

  it('a Java instance whose session closes, or expires, leaves our ServiceCache and ServiceProvider', async () => {
    const other = await startDiscoveryDriver(server.connectString, BASE);
    const zk = await client();
    await using discovery = new ServiceDiscovery(zk, { basePath: BASE });
    await discovery.start();
    await java.call('register', 'jvm', 'stays-then-expires', 'h', 11, 'map');
    await other.call('register', 'jvm', 'closes', 'h', 12, 'none');
    const cache = discovery.serviceCache('jvm');
    await cache.start();
    const provider = discovery.serviceProvider({ serviceName: 'jvm' });
    await provider.start();
    expect(cache.instances().map((i) => i.id)).toEqual(['closes', 'stays-then-expires']);
    const changes: string[][] = [];
    cache.on('changed', (instances) => changes.push(instances.map((i) => i.id)));

    await other.call('drop-session'); // its client closes without unregistering: the session ends
    await eventually(() => cache.instances().length === 1);
    await eventually(() => provider.getAllInstances().length === 1);
    await other.close();

    // Expire the main driver's session from outside; its instance goes with it.
    const [hexId, password] = (await java.call('session')).split(' ');
    await expireSessionById(
      server.connectString,
      BigInt(`0x${hexId}`),
      Buffer.from(password as string, 'base64'),
    );
    await eventually(() => changes.some((ids) => ids.length === 0));
    // Curator re-registers its instance on the new session: our cache sees it back.
    await eventually(() => cache.instances().some((i) => i.id === 'stays-then-expires'));
    expect(changes).toContainEqual([]);
  });
});
