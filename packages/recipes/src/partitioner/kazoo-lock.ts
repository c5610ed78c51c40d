/**
 * kazoo's `Lock` (kazoo/recipe/lock.py), as its SetPartitioner takes one per owned item: contenders are
 * EPHEMERAL_SEQUENTIAL children `<uuid hex>__lock__<seq>` of the lock path, sorted by the ten-digit sequence
 * after `__lock__`; the lowest holds, each other waits on its immediate predecessor. Not reentrant, as kazoo's.
 * A node left by an acquire that gave up (timeout, abort, error) is deleted, as kazoo's best-effort cleanup.
 */
import { randomUUID } from 'node:crypto';
import { type Deadline, DeadlineExpired } from '../internal-common/deadline.js';
import {
  deleteGuaranteed,
  deleteOnGiveUp,
  findAndDeleteProtectedInBackground,
} from '../internal-common/guaranteed-delete.js';
import { waitForPredecessor } from '../internal-common/wakeup.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode, isRetryable } from '../internal-common/zk-errors.js';

/** kazoo's lock node name, between the contender's uuid and the sequence number. */
export const KAZOO_LOCK_NAME = '__lock__';

/** kazoo's contender pattern: the lock name and a ten-digit (possibly negative) sequence at the end. */
const CONTENDER = /__lock__(-?\d{10})$/;

/** The contender that must go before `ourName` in kazoo's order, or null when we hold. */
export function kazooPredecessor(children: readonly string[], ourName: string): string | null | undefined {
  const contenders = children
    .map((name) => ({ name, seq: CONTENDER.exec(name)?.[1] }))
    .filter((entry): entry is { name: string; seq: string } => entry.seq !== undefined)
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const index = contenders.findIndex((entry) => entry.name === ourName);
  if (index < 0) return undefined;
  return index === 0 ? null : (contenders[index - 1] as { name: string }).name;
}

/** Creates every missing node of `path` as a persistent node with no data (kazoo's `ensure_path`). */
export async function ensurePath(client: RecipeClient, path: string): Promise<void> {
  const segments = path.split('/').slice(1);
  for (let i = 1; i <= segments.length; i++) {
    const prefix = `/${segments.slice(0, i).join('/')}`;
    try {
      await client.create(prefix, new Uint8Array(0), { mode: 'persistent' });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }
}

/** One contender of a kazoo lock. */
export class KazooLock {
  readonly path: string;
  readonly #client: RecipeClient;
  readonly #data: Uint8Array;
  readonly #prefix = `${randomUUID().replaceAll('-', '')}${KAZOO_LOCK_NAME}`;
  #node: string | undefined;

  /** `data` is the contender's identifier, as kazoo's `identifier` (kazoo's partitioner writes none). */
  constructor(client: RecipeClient, path: string, data: Uint8Array) {
    this.#client = client;
    this.path = path;
    this.#data = data;
  }

  /** Our node while held. */
  get nodePath(): string | undefined {
    return this.#node === undefined ? undefined : `${this.path}/${this.#node}`;
  }

  /** Takes the lock: true when held, false when the deadline passed first (our node is then deleted). */
  async acquire(deadline: Deadline): Promise<boolean> {
    if (this.#node !== undefined) throw new Error(`kazoo lock ${this.path} is already held by this object`);
    let ourName: string | undefined;
    try {
      ourName = await this.#create(deadline);
      for (;;) {
        const children = await deadline.guard(this.#client.getChildren(this.path));
        const predecessor = kazooPredecessor(children, ourName);
        if (predecessor === undefined) {
          // Our node is gone (a session loss): kazoo makes a new one.
          ourName = await this.#create(deadline);
          continue;
        }
        if (predecessor === null) {
          this.#node = ourName;
          return true;
        }
        await waitForPredecessor(this.#client, `${this.path}/${predecessor}`, deadline);
      }
    } catch (error) {
      if (ourName !== undefined) await deleteOnGiveUp(this.#client, `${this.path}/${ourName}`);
      // A create we stopped waiting for may still have made our node.
      else findAndDeleteProtectedInBackground(this.#client, this.path, this.#prefix);
      if (error instanceof DeadlineExpired) return false;
      throw error;
    }
  }

  /** Deletes our node (a node already gone counts as released). */
  async release(): Promise<void> {
    const node = this.#node;
    if (node === undefined) return;
    this.#node = undefined;
    await deleteGuaranteed(this.#client, `${this.path}/${node}`);
  }

  /**
   * Creates our contender node, making the lock path when missing. After a connection problem the create's
   * outcome is unknown, so the children are listed for our prefix before trying again (kazoo's `_find_node`).
   */
  async #create(deadline: Deadline): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (attempt > 0) {
          const children = await deadline.guard(this.#client.getChildren(this.path));
          const found = children.find((child) => child.startsWith(this.#prefix));
          if (found !== undefined) return found;
        }
        const created = await deadline.guard(
          this.#client.create(`${this.path}/${this.#prefix}`, this.#data, { mode: 'ephemeral-sequential' }),
        );
        return created.slice(this.path.length + 1);
      } catch (error) {
        if (isNoNode(error)) {
          await deadline.guard(ensurePath(this.#client, this.path));
          continue;
        }
        if (!isRetryable(error) || attempt >= 3) throw error;
        await deadline.guard(this.#client.connected());
      }
    }
  }
}
