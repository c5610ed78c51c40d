/**
 * Curator's protected create with recovery (curator/conventions.md §1.5). The node is named
 * `_c_<uuid>-<name>`. When a create fails with a connection problem its outcome is unknown, so before each
 * retry we list the parent and adopt a child carrying our prefix instead of creating a second node. An
 * ephemeral found under a different session than the first attempt's belongs to a dead session: it is deleted
 * and a new one made. When every attempt fails, the node is looked for and deleted in the background, and the
 * error re-thrown.
 */
import { normalizeProtectedName } from './protected-name.js';
import type { RecipeClient, RecipeCreateMode } from './zk-client.js';

/** What to create. */
export interface ProtectedCreateRequest {
  /** The parent path, e.g. the lock path. */
  parentPath: string;
  /** The name after the protection prefix, e.g. `lock-` (the server appends the sequence). */
  name: string;
  data: Uint8Array;
  mode: Extract<RecipeCreateMode, 'ephemeral' | 'ephemeral-sequential'>;
  /** Attempts in all, the first included (default 4, like a small Curator retry policy). */
  maxAttempts?: number;
}

/** The created node's full path and the prefix that identifies it. */
export interface ProtectedNode {
  path: string;
  prefix: string;
}

/** What a retry does with the listing it made: adopt our node, replace a dead session's node, or create. */
export type RecoveryStep = 'adopt' | 'replace' | 'create';

/**
 * Decides a retry's step from what the listing found. Only a node made under the session of the first
 * attempt is ours: an ephemeral of an earlier session will vanish with it, so it is replaced, not adopted.
 */
export function recoveryStep(found: boolean, sessionAtStart: bigint, sessionNow: bigint): RecoveryStep {
  if (!found) return 'create';
  return sessionNow === sessionAtStart ? 'adopt' : 'replace';
}

/**
 * Creates a protected node with the client's protected create (`create(..., { protected })`, which recovers it
 * after connection loss as the file comment says), making container parents as Curator's
 * creatingParentContainersIfNeeded().
 */
export async function createProtected(
  client: RecipeClient,
  request: ProtectedCreateRequest,
): Promise<ProtectedNode> {
  const { parentPath, name, data, mode } = request;
  const path = await client.create(`${parentPath}/${name}`, data, {
    mode,
    protected: { maxAttempts: request.maxAttempts ?? 4 },
    createParents: 'container',
  });
  const created = path.slice(path.lastIndexOf('/') + 1);
  return { path, prefix: created.slice(0, created.length - normalizeProtectedName(created).length) };
}
