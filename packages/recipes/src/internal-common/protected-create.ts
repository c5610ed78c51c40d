/**
 * Curator's protected create with recovery (curator-compat.md §1.5). The node is named `_c_<uuid>-<name>`.
 * When a create fails with a connection problem its outcome is unknown, so before each retry we list the
 * parent and adopt a child carrying our prefix instead of creating a second node. An ephemeral found under a
 * different session than the first attempt's belongs to a dead session: it is deleted and a new one made.
 * When every attempt fails, the node is looked for and deleted in the background, and the error re-thrown.
 */
import { createWithContainerParents } from './create-with-parents.js';
import { deleteGuaranteed, findAndDeleteProtectedInBackground } from './guaranteed-delete.js';
import { newProtectedPrefix } from './protected-name.js';
import type { RecipeClient, RecipeCreateMode } from './zk-client.js';
import { isNoNode, isRetryable } from './zk-errors.js';

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

async function findOurs(
  client: RecipeClient,
  parentPath: string,
  prefix: string,
): Promise<string | undefined> {
  try {
    const children = await client.getChildren(parentPath);
    const found = children.find((child) => child.startsWith(prefix));
    return found === undefined ? undefined : `${parentPath}/${found}`;
  } catch (error) {
    if (isNoNode(error)) return undefined;
    throw error;
  }
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

/** Creates a protected node, recovering it after connection loss (see the file comment). */
export async function createProtected(
  client: RecipeClient,
  request: ProtectedCreateRequest,
): Promise<ProtectedNode> {
  const { parentPath, name, data, mode } = request;
  const maxAttempts = request.maxAttempts ?? 4;
  const prefix = newProtectedPrefix();
  const sessionAtStart = client.sessionId;
  let lastError: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      if (attempt > 0) {
        await client.connected();
        const found = await findOurs(client, parentPath, prefix);
        const step = recoveryStep(found !== undefined, sessionAtStart, client.sessionId);
        if (step === 'adopt') return { path: found as string, prefix };
        if (step === 'replace') void deleteGuaranteed(client, found as string).catch(() => {});
      }
      const path = await createWithContainerParents(client, `${parentPath}/${prefix}${name}`, data, mode);
      return { path, prefix };
    } catch (error) {
      if (!isRetryable(error)) throw error;
      lastError = error;
    }
  }
  findAndDeleteProtectedInBackground(client, parentPath, prefix);
  throw lastError;
}

/**
 * Cleans up after a caller that stopped waiting for a create (timeout or abort): the node is deleted once the
 * create lands. While connected the reply is moments away, so this waits for the delete and the caller
 * leaves nothing behind; while disconnected it carries on in the background rather than hold the caller.
 */
export async function abandonCreate(client: RecipeClient, creating: Promise<ProtectedNode>): Promise<void> {
  const cleanup = creating.then(
    (node) => deleteGuaranteed(client, node.path).catch(() => {}),
    () => {}, // a failed create already cleans up after itself
  );
  if (client.state === 'connected' || client.state === 'read-only') await cleanup;
}
