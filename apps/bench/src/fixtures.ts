/**
 * The znodes a run needs, made before the first cell and removed at the end, with node-zookeeper-client (a
 * mature peer) rather than our own client, so that a broken build of ours cannot break the others' cells.
 */
import { createRequire } from 'node:module';
import type { FixturePaths } from './types.js';

type Callback = (error: unknown, result?: unknown) => void;
export interface Transaction {
  /** persistent, open ACL */
  create(path: string, data: Buffer): Transaction;
  remove(path: string, version: number): Transaction;
  commit(cb: Callback): void;
}
interface SetupClient {
  connect(): void;
  close(): void;
  once(event: string, listener: () => void): void;
  create(path: string, data: Buffer, mode: number, cb: Callback): void;
  remove(path: string, version: number, cb: Callback): void;
  getChildren(path: string, cb: Callback): void;
  transaction(): Transaction;
}

const require = createRequire(import.meta.url);
const CHILDREN = 1_000;
const MULTI_OPS = 10;
/** The tree: its root, TREE_PARENTS nodes under it, TREE_LEAVES under each: 10,000 nodes in all. */
const TREE_PARENTS = 99;
const TREE_LEAVES = 100;

/** Every node of the tree at `root`, the root first, then each parent and its leaves. */
export function treeNodePaths(root: string): string[] {
  const paths = [root];
  for (let p = 0; p < TREE_PARENTS; p++) {
    const parent = `${root}/p${String(p).padStart(2, '0')}`;
    paths.push(parent);
    for (let n = 0; n < TREE_LEAVES; n++) paths.push(`${parent}/n${String(n).padStart(3, '0')}`);
  }
  return paths;
}

/** A connected node-zookeeper-client session. */
export async function nzcSession(connectString: string): Promise<SetupClient> {
  const nzc = require('node-zookeeper-client') as { createClient(cs: string, o: object): SetupClient };
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

const call = <T>(run: (cb: Callback) => void) =>
  new Promise<T>((resolve, reject) => run((e, result) => (e ? reject(e) : resolve(result as T))));

/** Creates the run's nodes under a fresh root; the tree only when a case needs it. */
export async function createFixtures(
  connectString: string,
  runId: string,
  dataSize: number,
  withTree: boolean,
): Promise<FixturePaths> {
  const root = `/zkwire-bench-${runId}`;
  const paths: FixturePaths = {
    root,
    data: `${root}/data`,
    children: `${root}/children`,
    multi: Array.from({ length: MULTI_OPS }, (_, i) => `${root}/multi/m${i}`),
    scratch: `${root}/scratch`,
    watch: `${root}/watch`,
    ...(withTree ? { tree: `${root}/tree` } : {}),
  };
  const client = await nzcSession(connectString);
  const data = Buffer.alloc(dataSize, 0x61);
  const create = (path: string, bytes = data) => call<void>((cb) => client.create(path, bytes, 0, cb));
  try {
    await create(root, Buffer.alloc(0));
    const parents = [paths.data, paths.children, `${root}/multi`, paths.scratch, paths.watch];
    await Promise.all(parents.map((path) => create(path)));
    const children = Array.from(
      { length: CHILDREN },
      (_, i) => `${paths.children}/child-${String(i).padStart(4, '0')}`,
    );
    await Promise.all([...children, ...paths.multi].map((path) => create(path)));
    if (paths.tree) {
      const nodes = treeNodePaths(paths.tree);
      // a level at a time, pipelined: the root, the parents, then the leaves
      for (const depth of [1, 2, 3]) {
        await Promise.all(nodes.filter((p) => p.split('/').length - 2 === depth).map((path) => create(path)));
      }
    }
  } finally {
    client.close();
  }
  return paths;
}

/** Deletes a subtree, children first, siblings pipelined. */
async function deleteTree(client: SetupClient, path: string): Promise<void> {
  const children = await call<string[]>((cb) => client.getChildren(path, cb));
  await Promise.all(children.map((child) => deleteTree(client, `${path}/${child}`)));
  await call<void>((cb) => client.remove(path, -1, cb));
}

/** Removes the run's nodes; says what went wrong rather than throwing (the figures are taken). */
export async function removeFixtures(connectString: string, root: string): Promise<string | undefined> {
  try {
    const client = await nzcSession(connectString);
    try {
      await deleteTree(client, root);
    } finally {
      client.close();
    }
    return undefined;
  } catch (error) {
    return `could not remove ${root}: ${String(error)}`;
  }
}
