/**
 * What the discovery integration tests share: one real server per test file with a fault proxy in front of
 * it, the clients a file opens (closed after it), what the server says each session watches, instances, and a
 * writer that registers them.
 */
import {
  type FaultProxy,
  parseWatchesByPath,
  serverFixture,
  startFaultProxy,
  type ZooKeeperServer,
} from '@zkwire/testing';
import type { ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { createServiceInstance } from '../src/service-instance.js';
import { openClient, started } from './helpers.js';

export const BASE = '/it/services';

/** A file's server, its fault proxy and its clients; call at the top of a describe block. */
export interface DiscoveryServer {
  readonly server: ZooKeeperServer;
  readonly proxy: FaultProxy;
  /** A new client of the server (through the proxy when asked), closed after the file's tests. */
  client(options?: { autoRecreateSession?: boolean; viaProxy?: boolean }): Promise<ZooKeeperClient>;
}

/** Starts a server and a proxy before the tests of the enclosing block and stops them, and its clients, after. */
export function discoveryServer(): DiscoveryServer {
  const fixture = serverFixture();
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    await fixture.start();
    proxy = fixture.track(await startFaultProxy({ host: fixture.server.host, port: fixture.server.port }));
  });
  afterAll(fixture.stop);
  return {
    get server() {
      return fixture.server;
    },
    get proxy() {
      return started(proxy);
    },
    async client(options) {
      const connectString = options?.viaProxy ? started(proxy).connectString : fixture.server.connectString;
      return fixture.track(await openClient(connectString, options));
    },
  };
}

/** Paths the session of `client` watches on the server. */
export async function watchedBy(server: ZooKeeperServer, client: ZooKeeperClient): Promise<string[]> {
  const hex = `0x${client.sessionId.toString(16)}`;
  return [...parseWatchesByPath(await server.fourLetterWord('wchp')).entries()]
    .filter(([, sessions]) => sessions.includes(hex))
    .map(([path]) => path)
    .sort();
}

/** Wraps a client and records every method called on it (to prove nothing was sent). */
export function recording(client: ZooKeeperClient): { client: ZooKeeperClient; calls: string[] } {
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

/** An instance of `name` with id `id` at 127.0.0.1:8000, with `extra` fields. */
export const instance = (
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

/** A ServiceDiscovery on `client`, started, with an instance of `name` registered for each of `ids`. */
export async function registeringWriter(
  client: ZooKeeperClient,
  name: string,
  ids: readonly string[],
): Promise<ServiceDiscovery> {
  const writer = new ServiceDiscovery(client, { basePath: BASE });
  await writer.start();
  for (const id of ids) await writer.registerService(instance(name, id));
  return writer;
}
