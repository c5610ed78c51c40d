/**
 * Helpers of the integration tests: one real ZooKeeper server per test file, real clients, a recorder of
 * the client calls a framework makes (to show that a refused write sent nothing).
 */
import { serverFixture, type ZooKeeperServer } from '@zkwire/testing';
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';

/** The server and clients of a test file, usable once beforeAll ran. */
export interface RealServer {
  readonly server: ZooKeeperServer;
  client(index: number): ZooKeeperClient;
}

/**
 * Starts one real server for the calling test file with `clients` connected clients; stops all after. The
 * server reaps empty containers every 100 ms, so that tests can tell a container parent from a persistent
 * one, and has TTL nodes enabled.
 */
export function useRealServer(clients: number): RealServer {
  const fixture = serverFixture({
    jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true', '-Dznode.container.checkIntervalMs=100'],
  });
  let opened: ZooKeeperClient[] = [];
  beforeAll(async () => {
    await fixture.start();
    const connectString = fixture.server.connectString;
    opened = await Promise.all(Array.from({ length: clients }, () => connect({ connectString })));
    for (const client of opened) fixture.track(client);
  });
  afterAll(fixture.stop);
  return {
    get server() {
      return fixture.server;
    },
    client(index) {
      const client = opened[index];
      if (client === undefined) throw new Error(`useRealServer: no client ${index}`);
      return client;
    },
  };
}

const CALLS = new Set([
  'create',
  'create2',
  'setData',
  'delete',
  'multi',
  'getData',
  'exists',
  'getChildren',
]);

/** The client, with every request-making call it receives recorded by name and path. */
export function recordCalls(client: ZooKeeperClient): { client: ZooKeeperClient; calls: string[] } {
  const calls: string[] = [];
  const recorded = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && CALLS.has(property)) {
        return (...args: unknown[]) => {
          calls.push(`${property} ${typeof args[0] === 'string' ? args[0] : ''}`.trim());
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { client: recorded, calls };
}
