/**
 * Writes that survive a lost reply, as Curator's `create().withProtection()` and `delete().guaranteed()`:
 *
 * - A protected create names the node `<parent>/_c_<uuid>-<name>` (Curator's layout, so Java tools and our
 *   recipes recognise it). When the create fails with a connection problem its outcome is unknown: before
 *   each retry the parent is listed and a child carrying our prefix is adopted instead of creating a second
 *   node. An ephemeral found after the session changed belongs to the dead session and will vanish: it is
 *   deleted and the node made again. When every attempt fails, the node is looked for and deleted in the
 *   background (Curator's FindAndDeleteProtectedNodeInBackground), and the error is thrown.
 * - A guaranteed delete is retried across connection losses (and new sessions, with autoRecreateSession)
 *   until the node is known gone. `signal` and `timeoutMs` end the caller's wait; the retry goes on.
 *
 * Both are made of several requests and waits: they are outside the order promise (docs/contracts.md).
 */
import { randomUUID } from 'node:crypto';
import { boundedWait } from '../util/bounded-wait.js';
import { isNoNode } from '../util/errors.js';
import { join, parent } from '../util/paths.js';
import { isRetryable } from '../util/retry.js';
import type { CallOptions, CreateMode, CreateOptions, Stat } from '../util/types.js';

/** Attempts of a protected create when `protected: true` (the first included). */
export const DEFAULT_PROTECTED_ATTEMPTS = 4;
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 2_000;

/** The calls the guarded writes make, on the client itself. */
export interface GuardedWriteClient {
  readonly sessionId: bigint;
  readonly state: string;
  connected(options?: CallOptions): Promise<void>;
  create2(path: string, data: CreateData, options?: CreateOptions): Promise<{ path: string; stat: Stat }>;
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  getChildren(path: string, options?: CallOptions): Promise<string[]>;
  delete(path: string, options?: CallOptions & { version?: number }): Promise<void>;
}
type CreateData = Uint8Array | string | null | undefined;

/** A fresh Curator protection prefix, `_c_<uuid>-`. */
export function protectionPrefix(): string {
  return `_c_${randomUUID()}-`;
}

/** The path a protected create asks for: the prefix goes before the node's own name. */
export function protectedPath(path: string, prefix: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return join(parent(path), `${prefix}${name}`);
}

function isTerminal(client: GuardedWriteClient): boolean {
  return client.state === 'closed' || client.state === 'expired';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Our child of `parentPath` carrying `prefix`, if any. */
async function findProtected(client: GuardedWriteClient, parentPath: string, prefix: string) {
  try {
    const found = (await client.getChildren(parentPath)).find((child) => child.startsWith(prefix));
    return found === undefined ? undefined : join(parentPath, found);
  } catch (error) {
    if (isNoNode(error)) return undefined;
    throw error;
  }
}

/** A protected create (see the file comment); resolves with the node's path and Stat. */
export async function createProtected(
  client: GuardedWriteClient,
  path: string,
  data: CreateData,
  options: CreateOptions & { mode?: CreateMode | undefined },
  maxAttempts: number,
): Promise<{ path: string; stat: Stat }> {
  const prefix = protectionPrefix();
  const target = protectedPath(path, prefix);
  const parentPath = parent(path);
  const ephemeral = (options.mode ?? 'persistent').startsWith('ephemeral');
  const { signal, timeoutMs } = options;
  const sessionAtStart = client.sessionId;
  let lastError: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      if (attempt > 0) {
        await client.connected({ signal, timeoutMs });
        const found = await findProtected(client, parentPath, prefix);
        if (found !== undefined && !(ephemeral && client.sessionId !== sessionAtStart)) {
          const stat = await client.exists(found, { signal, timeoutMs });
          if (stat !== null) return { path: found, stat };
        } else if (found !== undefined) {
          void deleteGuaranteed(client, found, -1).catch(() => {});
        }
      }
      return await client.create2(target, data, options);
    } catch (error) {
      if (!isRetryable(error) || signal?.aborted) throw error;
      lastError = error;
    }
  }
  findAndDeleteInBackground(client, parentPath, prefix);
  throw lastError;
}

/** After a protected create given up, deletes the node if it landed after all, retrying until known. */
function findAndDeleteInBackground(client: GuardedWriteClient, parentPath: string, prefix: string): void {
  void retryUntilDone(client, async () => {
    const found = await findProtected(client, parentPath, prefix);
    if (found !== undefined) await deleteOnce(client, found, -1);
  }).catch(() => {});
}

/** One delete; a node already gone counts as deleted. */
async function deleteOnce(client: GuardedWriteClient, path: string, version: number): Promise<void> {
  try {
    await client.delete(path, { version });
  } catch (error) {
    if (!isNoNode(error)) throw error;
  }
}

/**
 * Runs `attempt` until it succeeds; connection problems (and, when the client makes new sessions, an
 * expired session) are retried with a doubling pause, anything else ends it.
 */
async function retryUntilDone(client: GuardedWriteClient, attempt: () => Promise<void>): Promise<void> {
  let delay = FIRST_RETRY_DELAY_MS;
  for (;;) {
    try {
      await attempt();
      return;
    } catch (error) {
      if (isTerminal(client) || !isRetryable(error, true)) throw error;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    await client.connected().catch(() => {});
  }
}

/** A guaranteed delete (see the file comment). */
export function deleteGuaranteed(
  client: GuardedWriteClient,
  path: string,
  version: number,
  options: CallOptions = {},
): Promise<void> {
  const done = retryUntilDone(client, () => deleteOnce(client, path, version));
  // The caller may stop waiting; the retry carries on and its end is nobody's business then.
  done.catch(() => {});
  return boundedWait(done, 'delete', options);
}
