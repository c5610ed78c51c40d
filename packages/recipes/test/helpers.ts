/**
 * Helpers of the integration tests: one real server (and a fault proxy) per test file, real clients, and
 * barrier and tracking helpers. Every recipe takes the real client, so one client type serves all the tests.
 */
import {
  type FaultProxy,
  type StartZooKeeperOptions,
  serverFixture,
  startFaultProxy,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';

/** The real client: the recipes take it as their RecipeClient / ValueClient. */
export type TestClient = ZooKeeperClient;

/** Connects a new client (its own connection and session). */
export function openClient(connectString: string, sessionTimeoutMs = 30_000): Promise<TestClient> {
  return connect({ connectString, sessionTimeoutMs });
}

/** Connects `n` clients. */
export function openClients(connectString: string, n: number): Promise<TestClient[]> {
  return Promise.all(Array.from({ length: n }, () => openClient(connectString)));
}

/** Closes clients, ignoring the ones already closed or never opened. */
export async function closeAll(clients: readonly (TestClient | undefined)[]): Promise<void> {
  await Promise.all(clients.map((client) => client?.close().catch(() => {})));
}

/** What {@link useRealServer} starts for a test file; read it inside tests and hooks, once beforeAll ran. */
export interface RealServer {
  readonly server: ZooKeeperServer;
  /** A fault proxy in front of the server; only with `faultProxy: true`. */
  readonly proxy: FaultProxy;
  /** Clients connected straight to the server, opened before the tests and closed after them. */
  readonly clients: readonly TestClient[];
  /** The `index`-th of {@link clients} (throws if there are fewer). */
  client(index: number): TestClient;
  /** The `index`-th client connected through the fault proxy (`proxiedClients`; throws if there are fewer). */
  proxiedClient(index: number): TestClient;
}

/**
 * Starts one real server for the calling test file (beforeAll) with `clients` connected clients and,
 * optionally, a fault proxy in front of it; closes all of it afterwards (afterAll), clients first.
 */
export function useRealServer(options: {
  clients: number;
  faultProxy?: boolean;
  /** Clients to open through the fault proxy (implies `faultProxy`), after the direct ones. */
  proxiedClients?: number;
  server?: StartZooKeeperOptions;
}): RealServer {
  const fixture = serverFixture(options.server);
  let proxy: FaultProxy | undefined;
  let clients: TestClient[] = [];
  let proxiedClients: TestClient[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useRealServer: no ${what} (not started, or not asked for)`);
    return value;
  };
  beforeAll(async () => {
    await fixture.start();
    const { server } = fixture;
    if (options.faultProxy || options.proxiedClients)
      proxy = fixture.track(await startFaultProxy({ host: server.host, port: server.port }));
    clients = (await openClients(server.connectString, options.clients)).map(fixture.track);
    if (proxy)
      proxiedClients = (await openClients(proxy.connectString, options.proxiedClients ?? 0)).map(
        fixture.track,
      );
  });
  afterAll(fixture.stop);
  return {
    get server() {
      return fixture.server;
    },
    get proxy() {
      return started(proxy, 'fault proxy');
    },
    get clients() {
      return clients;
    },
    client(index) {
      return started(clients[index], `client ${index}`);
    },
    proxiedClient(index) {
      return started(proxiedClients[index], `proxied client ${index}`);
    },
  };
}

/** The children of `path`, or [] when it does not exist. */
export async function childrenOf(client: TestClient, path: string): Promise<string[]> {
  try {
    return await client.getChildren(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'NONODE') return [];
    throw error;
  }
}

/** A promise with its resolver, for "this happened" flags in tests. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Wraps a client so that every watch armed through getData or getChildren is counted when it fires: the herd
 * tests count how many waiters one release wakes (a herd would watch the parent's children, or every node).
 */
export function countWatchEvents(client: TestClient): { client: TestClient; fired: () => number } {
  let fired = 0;
  const counting =
    (read: 'getData' | 'getChildren') =>
    (path: string, options?: { watch?: (event: { type: string; path: string }) => void }) => {
      const watch = options?.watch;
      const counted = watch
        ? {
            ...options,
            watch: (event: { type: string; path: string }) => {
              fired += 1;
              watch(event);
            },
          }
        : options;
      return (client[read] as (path: string, options?: object) => Promise<unknown>)(path, counted);
    };
  const wrapped = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'getData' || property === 'getChildren') return counting(property);
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: wrapped, fired: () => fired };
}

/**
 * A barrier event for negative checks: every observer arms an exists watch on `path`, then `writer` creates
 * (and deletes) it, and this resolves once every observer's watch has fired. The server sends each session its
 * events in zxid order, so once the barrier event arrived, every event of an earlier write has arrived too:
 * "no other event came" can then be asserted without waiting on a clock.
 */
export async function watchBarrier(
  observers: readonly TestClient[],
  writer: TestClient,
  path: string,
): Promise<void> {
  const fired = await Promise.all(
    observers.map(async (observer) => {
      const event = deferred();
      await observer.exists(path, { watch: () => event.resolve() });
      return { fired: event.promise };
    }),
  );
  await writer.create(path, null, { mode: 'persistent', createParents: true });
  await Promise.all(fired.map((observer) => observer.fired));
  await writer.delete(path);
}

/** One read a {@link trackReads} client made, recorded when its reply came (or it failed). */
export interface SettledRead {
  method: 'exists' | 'getData' | 'getChildren';
  path: string;
  watched: boolean;
}

/**
 * Wraps a client and records each exists/getData/getChildren once it settles: a test waits until a recipe
 * has read what it decides on (and armed its watch) before checking that it still waits.
 */
export function trackReads(client: TestClient): { client: TestClient; settled: SettledRead[] } {
  const settled: SettledRead[] = [];
  const wrapped = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'exists' || property === 'getData' || property === 'getChildren') {
        return (path: string, options?: { watch?: unknown }) => {
          const record = () =>
            settled.push({ method: property, path, watched: options?.watch !== undefined });
          const call = (target[property] as (path: string, options?: object) => Promise<unknown>)(
            path,
            options,
          );
          call.then(record, record);
          return call;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: wrapped, settled };
}

/** Tracks whether a promise has settled (without leaving a rejection unhandled). */
export function settledFlag(promise: Promise<unknown>): { readonly settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => {
      flag.settled = true;
    },
    () => {
      flag.settled = true;
    },
  );
  return flag;
}
