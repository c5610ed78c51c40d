/**
 * One create round of a PersistentNode, by Curator's naming rules (`persistent-node-options.ts`): the create
 * itself, where a node already at the name is adopted, and the search for a protected sequential node whose
 * create reply was lost (curator/conventions.md §1.5), so that no second node is made.
 */
import { childrenOrNone, deleteIfPresent } from '../internal-common/missing-node.js';
import { recoveryStep } from '../internal-common/protected-create.js';
import { isNodeExists } from '../internal-common/zk-errors.js';
import type { NodeClient } from './node-client.js';
import {
  childPath,
  firstCreatePath,
  isEphemeralMode,
  isSequentialMode,
  type PersistentNodeSettings,
  parentOf,
  recreateModeOf,
} from './persistent-node-options.js';

/** A create whose answer never came: the session it was sent in and the data generation it carried. */
export interface LostCreate {
  session: bigint;
  generation: number;
}

/** The node a create round ended with: made by it, or already there (adopted, so our data must follow). */
export interface CreatedNode {
  path: string;
  adopted: boolean;
}

/**
 * Creates the node: at `knownPath` in the plain form of the mode once a name was made (so it keeps its name and
 * sequence digits), else at the base path (protected if asked). NodeExists adopts the node at that name
 * without checking its owner, as Curator does.
 */
export async function createNode(
  client: NodeClient,
  settings: PersistentNodeSettings,
  knownPath: string | undefined,
  data: Uint8Array,
): Promise<CreatedNode> {
  const { basePath, mode, protectionPrefix, ttlMs, useParentCreation } = settings;
  const path = knownPath ?? firstCreatePath(basePath, protectionPrefix);
  try {
    const created = await client.create(path, data, {
      mode: knownPath === undefined ? mode : recreateModeOf(mode),
      ...(ttlMs === undefined ? {} : { ttlMs }),
      ...(useParentCreation ? { createParents: 'container' as const } : {}),
    });
    return { path: created, adopted: false };
  } catch (error) {
    if (isNodeExists(error)) return { path, adopted: true };
    throw error;
  }
}

/**
 * After a first create of a protected sequential node whose answer was lost: lists the parent for our prefix
 * and returns the path of our node, made with the lost create's data. An ephemeral one made under an earlier
 * session is going anyway: it is deleted and undefined returned, as when nothing is found, so a new one is
 * made. Without protection or a sequential mode there is nothing to search (the name decides, or cannot).
 */
export async function findLostCreate(
  client: NodeClient,
  settings: PersistentNodeSettings,
  lost: LostCreate,
): Promise<string | undefined> {
  const { basePath, mode, protectionPrefix } = settings;
  if (protectionPrefix === undefined || !isSequentialMode(mode)) return undefined;
  const parent = parentOf(basePath);
  const found = (await childrenOrNone(client, parent)).find((name) => name.startsWith(protectionPrefix));
  if (found === undefined) return undefined;
  const path = childPath(parent, found);
  const step = isEphemeralMode(mode) ? recoveryStep(true, lost.session, client.sessionId) : 'adopt';
  if (step === 'adopt') return path;
  await deleteIfPresent(client, path);
  return undefined;
}
