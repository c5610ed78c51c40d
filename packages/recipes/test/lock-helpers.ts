/** Helpers shared by the lock integration tests: clients on real servers, and a watch-counting wrapper. */
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';

/** The real client: the recipes take it as their RecipeClient. */
export type TestClient = ZooKeeperClient;

/** Connects a new client (its own connection and session). */
export async function openClient(connectString: string, sessionTimeoutMs = 30_000): Promise<TestClient> {
  return connect({ connectString, sessionTimeoutMs });
}

/** Connects `n` clients. */
export function openClients(connectString: string, n: number): Promise<TestClient[]> {
  return Promise.all(Array.from({ length: n }, () => openClient(connectString)));
}

/** Closes clients, ignoring the ones already closed. */
export async function closeAll(clients: readonly (TestClient | undefined)[]): Promise<void> {
  await Promise.all(clients.map((client) => client?.close().catch(() => {})));
}

/**
 * Wraps a client so that every watch armed through getData is counted when it fires: the herd test counts how
 * many waiters one release wakes.
 */
export function countGetDataWatches(client: TestClient): { client: TestClient; fired: () => number } {
  let fired = 0;
  const wrapped = new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'getData') {
        return (path: string, options?: { watch?: (event: unknown) => void }) => {
          const watch = options?.watch;
          return target.getData(path, {
            ...options,
            ...(watch
              ? {
                  watch: (event: { type: string; path: string }) => {
                    fired += 1;
                    watch(event);
                  },
                }
              : {}),
          });
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: wrapped, fired: () => fired };
}

/** Polls `check` until it returns true (the server state a test waits for), giving up after `attempts`. */
export async function eventually(check: () => Promise<boolean> | boolean, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
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
