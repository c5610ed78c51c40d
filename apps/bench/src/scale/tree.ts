/**
 * The trees of the cacheScale scenario: `size` nodes in all (the root included), fan-out 100, breadth first:
 * node i's parent is node floor((i - 1) / 100). Made once per size by the orchestrator with multi batches of
 * creates (a batch may hold a node and its parent: a multi applies in order), and removed the same way, leaves
 * first, with node-zookeeper-client as the run's other fixtures are.
 */
import { createRequire } from 'node:module';

export const FAN_OUT = 100;
/** Ops per multi: 1,000 creates of 100 bytes stay far below the server's 1 MB jute.maxbuffer. */
const BATCH = 1_000;
/** Multis in flight at once. */
const PIPELINE = 8;

/** Every node of the tree at `root` with `size` nodes, breadth first (the root first). */
export function scaleTreePaths(root: string, size: number): string[] {
  const paths: string[] = [root];
  for (let i = 1; i < size; i++) {
    const parent = paths[Math.floor((i - 1) / FAN_OUT)] as string;
    paths.push(`${parent}/n${(i - 1) % FAN_OUT}`);
  }
  return paths;
}

type Callback = (error: unknown) => void;
interface Transaction {
  create(path: string, data: Buffer, acls: unknown[], mode: number): Transaction;
  remove(path: string, version: number): Transaction;
  commit(cb: Callback): void;
}
interface TreeClient {
  connect(): void;
  close(): void;
  once(event: 'connected', listener: () => void): void;
  transaction(): Transaction;
}
interface Nzc {
  createClient(connectString: string, options: object): TreeClient;
  ACL: { OPEN_ACL_UNSAFE: unknown[] };
}

const require = createRequire(import.meta.url);

async function session(connectString: string): Promise<{ client: TreeClient; nzc: Nzc }> {
  const nzc = require('node-zookeeper-client') as Nzc;
  const client = nzc.createClient(connectString, { sessionTimeout: 30_000, retries: 2 });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cannot connect to ${connectString}`)), 15_000);
    client.once('connected', () => {
      clearTimeout(timer);
      resolve();
    });
    client.connect();
  });
  return { client, nzc };
}

/** Runs `batches` as multis, PIPELINE at once; one session, so the server applies them in order. */
async function commitAll(client: TreeClient, batches: ((t: Transaction) => Transaction)[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const fill = batches[next++] as (t: Transaction) => Transaction;
      await new Promise<void>((resolve, reject) =>
        fill(client.transaction()).commit((e) => (e ? reject(e) : resolve())),
      );
    }
  };
  await Promise.all(Array.from({ length: PIPELINE }, lane));
}

const inBatches = (paths: readonly string[]) =>
  Array.from({ length: Math.ceil(paths.length / BATCH) }, (_, b) => paths.slice(b * BATCH, (b + 1) * BATCH));

/** Makes the tree of `size` nodes at `root` (its parent must exist); data of `dataSize` bytes on each. */
export async function createScaleTree(connectString: string, root: string, size: number, dataSize: number) {
  const { client, nzc } = await session(connectString);
  const data = Buffer.alloc(dataSize, 0x61);
  try {
    await commitAll(
      client,
      inBatches(scaleTreePaths(root, size)).map((batch) => (t: Transaction) => {
        for (const path of batch) t.create(path, data, nzc.ACL.OPEN_ACL_UNSAFE, 0);
        return t;
      }),
    );
  } finally {
    client.close();
  }
}

/** Removes that tree, deepest nodes first (reverse breadth-first order deletes every child before its parent). */
export async function removeScaleTree(connectString: string, root: string, size: number) {
  const { client } = await session(connectString);
  try {
    // one session applies the multis in the order sent, so a batch's parents go after the batches before
    await commitAll(
      client,
      inBatches(scaleTreePaths(root, size).reverse()).map((batch) => (t: Transaction) => {
        for (const path of batch) t.remove(path, -1);
        return t;
      }),
    );
  } finally {
    client.close();
  }
}
