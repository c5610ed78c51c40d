/**
 * The znodes a run needs, made once before any cell starts and removed at the end. They are made with
 * node-zookeeper-client (a mature peer) rather than our own client, so that a broken build of ours cannot
 * break the other contenders' measurements.
 */
import { createRequire } from 'node:module';
import { createMemoryTree, removeMemoryTree, type TreeClient } from './memory-tree.js';
import type { FixturePaths } from './types.js';

const require = createRequire(import.meta.url);

type Callback = (error: unknown, ...rest: unknown[]) => void;
interface SetupClient extends TreeClient {
  connect(): void;
  close(): void;
  once(event: string, listener: () => void): void;
  getChildren(path: string, cb: Callback): void;
}

/** How many children the getChildren node has (the scenario). */
export const CHILD_COUNT = 1_000;
/** How many setData ops one multi holds. */
export const MULTI_SIZE = 10;
/** The cache scenarios' tree: its root, CACHE_PARENTS nodes under it, CACHE_LEAVES under each: 10,000 nodes. */
export const CACHE_PARENTS = 99;
export const CACHE_LEAVES = 100;

async function connectSetupClient(connectString: string): Promise<SetupClient> {
  const nzc = require('node-zookeeper-client') as {
    createClient(cs: string, o: Record<string, unknown>): SetupClient;
  };
  const client = nzc.createClient(connectString, { sessionTimeout: 30_000, retries: 2 });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`cannot connect to ZooKeeper at ${connectString}`)),
      15_000,
    );
    client.once('connected', () => {
      clearTimeout(timer);
      resolve();
    });
    client.connect();
  });
  return client;
}

function create(client: SetupClient, path: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => client.create(path, data, 0, (e) => (e ? reject(e) : resolve())));
}

/** Deletes a subtree, children first, siblings pipelined. */
async function deleteTree(client: SetupClient, path: string): Promise<void> {
  const children = await new Promise<string[]>((resolve, reject) =>
    client.getChildren(path, (e, list) => (e ? reject(e) : resolve(list as string[]))),
  );
  await Promise.all(children.map((child) => deleteTree(client, `${path}/${child}`)));
  await new Promise<void>((resolve, reject) => client.remove(path, -1, (e) => (e ? reject(e) : resolve())));
}

/** Creates the run's tree under a fresh root named after `runId`. */
export async function createFixtures(
  connectString: string,
  runId: string,
  dataSize: number,
  withCacheTree = false,
  withMemoryTree = false,
): Promise<FixturePaths> {
  const root = `/zkwire-bench-${runId}`;
  const paths: FixturePaths = {
    root,
    data: `${root}/data`,
    children: `${root}/children`,
    multi: Array.from({ length: MULTI_SIZE }, (_, i) => `${root}/multi/m${i}`),
    scratch: `${root}/scratch`,
    watch: `${root}/watch`,
    ...(withCacheTree ? { cacheTree: `${root}/cache-tree` } : {}),
    ...(withMemoryTree ? { memoryTree: `${root}/memory-tree` } : {}),
  };
  const client = await connectSetupClient(connectString);
  try {
    const data = Buffer.alloc(dataSize, 0x61);
    const empty = Buffer.alloc(0);
    await create(client, root, empty);
    await Promise.all([
      create(client, paths.data, data),
      create(client, paths.children, empty),
      create(client, `${root}/multi`, empty),
      create(client, paths.scratch, empty),
      create(client, paths.watch, data),
    ]);
    // Pipelined: the 1,000 creates go out together and take a few tens of milliseconds.
    await Promise.all([
      ...Array.from({ length: CHILD_COUNT }, (_, i) =>
        create(client, `${paths.children}/child-${String(i).padStart(4, '0')}`, empty),
      ),
      ...paths.multi.map((path) => create(client, path, data)),
    ]);
    if (paths.cacheTree !== undefined) await createCacheTree(client, paths.cacheTree, data);
    if (paths.memoryTree !== undefined) await createMemoryTree(client, paths.memoryTree);
  } finally {
    client.close();
  }
  return paths;
}

/** The cache scenarios' 10,000 nodes, each holding `data`; pipelined, a level at a time. */
async function createCacheTree(client: SetupClient, root: string, data: Buffer): Promise<void> {
  await create(client, root, data);
  const parents = Array.from({ length: CACHE_PARENTS }, (_, i) => `${root}/p${String(i).padStart(2, '0')}`);
  await Promise.all(parents.map((parent) => create(client, parent, data)));
  for (const parent of parents) {
    await Promise.all(
      Array.from({ length: CACHE_LEAVES }, (_, i) =>
        create(client, `${parent}/n${String(i).padStart(3, '0')}`, data),
      ),
    );
  }
}

/** Removes the run's tree; errors are reported, not thrown, since the measurements are already taken. */
export async function removeFixtures(
  connectString: string,
  paths: FixturePaths,
): Promise<string | undefined> {
  try {
    const client = await connectSetupClient(connectString);
    try {
      // 100,000 nodes one delete at a time would take many seconds: batched first
      // (a tree left half made fails here: the generic walk below still removes what is there)
      if (paths.memoryTree !== undefined) await removeMemoryTree(client, paths.memoryTree).catch(() => {});
      await deleteTree(client, paths.root);
    } finally {
      client.close();
    }
    return undefined;
  } catch (error) {
    return `could not remove ${paths.root}: ${String(error)}`;
  }
}
