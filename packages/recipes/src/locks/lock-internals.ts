/**
 * The contender loop shared by every sequential-node lock (Curator's LockInternals, curator/locks.md §2.3):
 * create our protected node, list and sort the contenders, and either hold or wait on the one node the
 * predicate names. On timeout, abort or error our node is deleted, so giving up leaves nothing behind.
 */
import { type Deadline, DeadlineExpired } from '../internal-common/deadline.js';
import { abandonCreate, deleteOnGiveUp } from '../internal-common/guaranteed-delete.js';
import { childrenOrNone } from '../internal-common/missing-node.js';
import { createProtected } from '../internal-common/protected-create.js';
import { NodeLostError } from '../internal-common/recipe-errors.js';
import { sortContenders } from '../internal-common/sequence-sort.js';
import { waitForPredecessor } from '../internal-common/wakeup.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNoNode } from '../internal-common/zk-errors.js';

/** The predicate's answer: hold now, or wait on the named child. */
export type PredicateResult = { acquired: true } | { acquired: false; watch: string };

/** Decides from the sorted contenders whether `ourName` holds. Returns undefined if `ourName` is missing. */
export type ContenderPredicate = (sorted: readonly string[], ourName: string) => PredicateResult | undefined;

/** How one kind of lock names, sorts and judges its contenders. */
export interface LockSpec {
  /** The lock path; contenders are its children. */
  basePath: string;
  /** Lock names whose last occurrence ends the sort prefix (`lock-`, or `__READ__` then `__WRIT__`). */
  sortNames: readonly string[];
  /** The node to create now: its name after the protection prefix, and its mode. */
  nodeToCreate(): { name: string; mode: 'ephemeral' | 'ephemeral-sequential' };
  /** The bytes our node holds. */
  nodeData(): Promise<Uint8Array>;
  predicate: ContenderPredicate;
  /** Called once our node exists, before we wait (a revocable lock starts watching its data then). */
  onContending?(ourPath: string): void;
}

/** Curator's StandardLockInternalsDriver: hold when our index is below `maxLeases`, else watch `idx - max`. */
export function standardPredicate(maxLeases: number): ContenderPredicate {
  return (sorted, ourName) => {
    const index = sorted.indexOf(ourName);
    if (index < 0) return undefined;
    if (index < maxLeases) return { acquired: true };
    return { acquired: false, watch: sorted[index - maxLeases] as string };
  };
}

/** Times our node may vanish under us before we give up (Curator asks its retry policy). */
const MAX_NODE_RECREATES = 3;

type LoopOutcome = 'acquired' | 'missing';

async function contend(
  client: RecipeClient,
  spec: LockSpec,
  ourPath: string,
  deadline: Deadline,
): Promise<LoopOutcome> {
  const ourName = ourPath.slice(spec.basePath.length + 1);
  for (;;) {
    let children: string[];
    try {
      children = await deadline.guard(client.getChildren(spec.basePath));
    } catch (error) {
      if (isNoNode(error)) return 'missing';
      throw error;
    }
    const result = spec.predicate(sortContenders(children, spec.sortNames), ourName);
    if (result === undefined) return 'missing';
    if (result.acquired) return 'acquired';
    await waitForPredecessor(client, `${spec.basePath}/${result.watch}`, deadline);
  }
}

/**
 * Takes the lock: resolves with our node's path, or null when the deadline passed first. Rejects with the
 * abort reason when aborted, and with client errors; in every case but success our node is deleted.
 */
export async function attemptLock(
  client: RecipeClient,
  spec: LockSpec,
  deadline: Deadline,
): Promise<string | null> {
  for (let recreated = 0; ; recreated++) {
    const { name, mode } = spec.nodeToCreate();
    const data = await spec.nodeData();
    let ourPath: string;
    const creating = createProtected(client, { parentPath: spec.basePath, name, data, mode });
    try {
      ourPath = (await deadline.guard(creating)).path;
    } catch (error) {
      await abandonCreate(client, creating);
      if (error instanceof DeadlineExpired) return null;
      throw error;
    }
    spec.onContending?.(ourPath);
    let outcome: LoopOutcome;
    try {
      outcome = await contend(client, spec, ourPath, deadline);
    } catch (error) {
      await deleteOnGiveUp(client, ourPath);
      if (error instanceof DeadlineExpired) return null;
      throw error;
    }
    if (outcome === 'acquired') return ourPath;
    if (recreated >= MAX_NODE_RECREATES) throw new NodeLostError(spec.basePath);
  }
}

/** The full paths of all contenders, sorted as the lock sorts them (`getParticipantNodes`). */
export async function participantNodes(
  client: RecipeClient,
  spec: Pick<LockSpec, 'basePath' | 'sortNames'>,
): Promise<string[]> {
  const children = await childrenOrNone(client, spec.basePath);
  return sortContenders(children, spec.sortNames).map((child) => `${spec.basePath}/${child}`);
}
