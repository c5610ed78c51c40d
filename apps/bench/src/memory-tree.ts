/**
 * The memory scenario's tree: MEMORY_PARENTS parents under one root, MEMORY_LEAVES empty leaves under each,
 * 100,000 nodes in all below the root. Every cell (Node workers and BenchDriver.java alike) walks the nodes
 * in the same order, parent first then its leaves, so "the first 10,000 nodes" means the same nodes to all.
 * Made once per run with batched creates (one multi per parent's leaves) and removed the same way.
 */

/** Parents under the tree's root. */
export const MEMORY_PARENTS = 100;
/** Leaves under each parent: with the parents, 100 × (1 + 999) = 100,000 nodes. */
export const MEMORY_LEAVES = 999;
/** Every node below the root. */
export const MEMORY_NODES = MEMORY_PARENTS * (1 + MEMORY_LEAVES);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The path of node `index` (0 ≤ index < MEMORY_NODES) of the tree at `root`, in walking order. */
export function memoryNodePath(root: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MEMORY_NODES) {
    throw new RangeError(`memory tree node ${index} is outside 0..${MEMORY_NODES - 1}`);
  }
  const parent = Math.floor(index / (1 + MEMORY_LEAVES));
  const leaf = index % (1 + MEMORY_LEAVES);
  const parentPath = `${root}/p${pad(parent, 3)}`;
  return leaf === 0 ? parentPath : `${parentPath}/n${pad(leaf - 1, 3)}`;
}

/** The paths of the first `count` nodes, in walking order. */
export function memoryNodePaths(root: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => memoryNodePath(root, i));
}

type Callback = (error: unknown, ...rest: unknown[]) => void;
interface Transaction {
  create(path: string, data?: Buffer): Transaction;
  remove(path: string, version?: number): Transaction;
  commit(cb: Callback): void;
}
/** The part of node-zookeeper-client the fixture uses. */
export interface TreeClient {
  create(path: string, data: Buffer, mode: number, cb: Callback): void;
  remove(path: string, version: number, cb: Callback): void;
  transaction(): Transaction;
}

const commit = (tx: Transaction) =>
  new Promise<void>((resolve, reject) => tx.commit((e) => (e ? reject(e) : resolve())));

/** Runs `task` for 0..count-1 with at most `limit` running at once. */
async function inBatches(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
}

/** Creates the tree at `root`: the root, the parents in one multi, then one multi of 999 leaves per parent. */
export async function createMemoryTree(client: TreeClient, root: string): Promise<void> {
  const empty = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) =>
    client.create(root, empty, 0, (e) => (e ? reject(e) : resolve())),
  );
  const parents = client.transaction();
  for (let p = 0; p < MEMORY_PARENTS; p++)
    parents.create(memoryNodePath(root, p * (1 + MEMORY_LEAVES)), empty);
  await commit(parents);
  await inBatches(MEMORY_PARENTS, 4, (p) => {
    const tx = client.transaction();
    const first = p * (1 + MEMORY_LEAVES);
    for (let i = 1; i <= MEMORY_LEAVES; i++) tx.create(memoryNodePath(root, first + i), empty);
    return commit(tx);
  });
}

/** Removes the tree's leaves (one multi per parent) and parents, so that the generic cleanup finds it small. */
export async function removeMemoryTree(client: TreeClient, root: string): Promise<void> {
  await inBatches(MEMORY_PARENTS, 4, (p) => {
    const tx = client.transaction();
    const first = p * (1 + MEMORY_LEAVES);
    for (let i = MEMORY_LEAVES; i >= 1; i--) tx.remove(memoryNodePath(root, first + i), -1);
    tx.remove(memoryNodePath(root, first), -1);
    return commit(tx);
  });
}
