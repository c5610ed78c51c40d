/**
 * The trees of the cacheScale scenario: `size` nodes in all (the root included), fan-out 100, breadth first:
 * node i's parent is node floor((i - 1) / 100). Made once per size by the orchestrator with multi batches of
 * creates (a batch may hold a node and its parent: a multi applies in order), and removed the same way, leaves
 * first, with node-zookeeper-client as the run's other fixtures are.
 */
import { nzcSession, type Transaction } from '../fixtures.js';

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

/**
 * Sends `paths` in multis of BATCH (`add` puts one path's op in), PIPELINE at once, on one session: the
 * server applies them in the order sent, so a batch may need the nodes of the batches before it.
 */
async function inMultis(connectString: string, paths: string[], add: (t: Transaction, path: string) => void) {
  const client = await nzcSession(connectString);
  try {
    let next = 0;
    const lane = async () => {
      while (next < paths.length) {
        const transaction = client.transaction();
        for (const path of paths.slice(next, (next += BATCH))) add(transaction, path);
        await new Promise<void>((resolve, reject) => transaction.commit((e) => (e ? reject(e) : resolve())));
      }
    };
    await Promise.all(Array.from({ length: PIPELINE }, lane));
  } finally {
    client.close();
  }
}

/** Makes the tree of `size` nodes at `root` (its parent must exist); data of `dataSize` bytes on each. */
export function createScaleTree(connectString: string, root: string, size: number, dataSize: number) {
  const data = Buffer.alloc(dataSize, 0x61);
  return inMultis(connectString, scaleTreePaths(root, size), (t, path) => t.create(path, data));
}

/** Removes that tree, deepest nodes first (reverse breadth-first order deletes every child before its parent). */
export function removeScaleTree(connectString: string, root: string, size: number) {
  return inMultis(connectString, scaleTreePaths(root, size).reverse(), (t, path) => t.remove(path, -1));
}
