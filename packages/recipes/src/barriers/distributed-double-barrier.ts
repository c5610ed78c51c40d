/**
 * DistributedDoubleBarrier (Curator's `barriers.DistributedDoubleBarrier` 5.4.0, curator/barriers.md §6.2):
 * `memberQty` members enter together and leave together.
 *
 * Layout, the same as Java's so both can share one barrier: each member is an EPHEMERAL node `B/<uuid>` (a
 * random UUID fixed per object), and `B/ready` (PERSISTENT) appears once enough members are in.
 * - enter: `exists(ready, watch)`, create our node, and if ready was not there count the children; the member
 *   that completes the count creates `ready`, the others wait for its watch.
 * - leave: with `ready` dropped and the rest sorted, the lowest member watches the highest; every other member
 *   deletes its own node and watches the lowest; the last one left deletes `ready`.
 *
 * Differences from Curator, both on giving up: an `enter` that times out or aborts deletes our member node
 * (Curator leaves it), so that no node is left behind; and after a wake-up `enter` re-checks `ready` and the
 * count instead of returning true on the first notification (the fix of Curator GH-1290).
 */
import { randomUUID } from 'node:crypto';
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { type Deadline, DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import { nodeDataOf } from '../internal-common/default-data.js';
import { deleteGuaranteed } from '../internal-common/guaranteed-delete.js';
import { childrenOrNone, deleteIfPresent } from '../internal-common/missing-node.js';
import { IllegalRecipeStateError, RecipeConnectionLostError } from '../internal-common/recipe-errors.js';
import { validatePositiveInteger, validateRecipePath } from '../internal-common/validate.js';
import { Wakeup } from '../internal-common/wakeup.js';
import { onClientState, type RecipeClient } from '../internal-common/zk-client.js';
import { isConnectionLoss, isNodeExists } from '../internal-common/zk-errors.js';
import { DisposeScope } from '../shared/dispose-scope.js';

/** The literal name of the ready node, shared with Curator and kazoo. */
export const READY_NODE = 'ready';

/** Options of {@link DistributedDoubleBarrier}. */
export interface DistributedDoubleBarrierOptions {
  /** Data of our member node and of `ready`; by default the local address, as Curator writes. */
  data?: Uint8Array | string;
}

/** A barrier that `memberQty` members enter together and leave together. */
export class DistributedDoubleBarrier implements AsyncDisposable {
  /** The barrier's parent node; members and `ready` live under it. */
  readonly path: string;
  /** How many members must enter before anyone may proceed. */
  readonly memberQty: number;
  /** Our member node, `path/<uuid>`. */
  readonly ourPath: string;
  readonly #client: RecipeClient;
  readonly #data: Uint8Array | string | undefined;
  readonly #readyPath: string;
  readonly #scope = new DisposeScope('DistributedDoubleBarrier');
  #entered = false;

  constructor(
    client: RecipeClient,
    path: string,
    memberQty: number,
    options: DistributedDoubleBarrierOptions = {},
  ) {
    this.#client = client;
    this.path = validateRecipePath(path);
    this.memberQty = validatePositiveInteger(memberQty, 'memberQty');
    this.#data = options.data;
    this.ourPath = `${this.path}/${randomUUID()}`;
    this.#readyPath = `${this.path}/${READY_NODE}`;
  }

  /**
   * Enters and blocks until `memberQty` members have entered. True once they have; false when the timeout
   * passed first (our member node is then removed). Rejects with CONNECTION_LOST when the connection dropped
   * meanwhile (as Curator throws ConnectionLoss), and with the abort reason when the signal aborts.
   */
  async enter(options?: WaitOptions): Promise<boolean> {
    const deadline = this.#scope.deadline(options);
    if (this.#entered) throw new IllegalRecipeStateError(`already entered ${this.path}`);
    const connection = this.#watchConnection();
    // Settles true once our member node exists, even if we stopped waiting for the create's answer.
    let creation: Promise<boolean> | undefined;
    try {
      let wakeup = new Wakeup(this.#client);
      let readyExists =
        (await deadline.guard(this.#client.exists(this.#readyPath, { watch: wakeup.watcher }))) !== null;
      const data = await nodeDataOf(this.#data);
      const create = this.#createMember(data);
      creation = create.then(
        () => true,
        () => false,
      );
      await deadline.guard(create);
      this.#entered = true;
      while (!readyExists) {
        const children = await deadline.guard(this.#client.getChildren(this.path));
        if (children.length >= this.memberQty) {
          await this.#createReady(data);
          break;
        }
        await wakeup.wait(deadline);
        connection.check(); // as Curator: a dropped connection ends the wait with ConnectionLoss
        wakeup = new Wakeup(this.#client);
        readyExists =
          (await deadline.guard(this.#client.exists(this.#readyPath, { watch: wakeup.watcher }))) !== null;
      }
      wakeup.dispose();
      connection.check();
      return true;
    } catch (error) {
      await this.#abandon(creation);
      if (error instanceof DeadlineExpired) return false;
      throw connection.lostOr(error);
    } finally {
      connection.stop();
    }
  }

  /**
   * Leaves and blocks until every member has left. True once they have; false when the timeout passed first
   * (as in Curator, the node of the lowest member then stays until a later `leave` or dispose). Rejects with
   * CONNECTION_LOST when the connection dropped meanwhile.
   */
  async leave(options?: WaitOptions): Promise<boolean> {
    const deadline = this.#scope.deadline(options);
    const connection = this.#watchConnection();
    const ourName = this.ourPath.slice(this.path.length + 1);
    let ourNodeShouldExist = this.#entered;
    try {
      for (;;) {
        connection.check();
        const children = await this.#membersSorted(deadline);
        if (children.length === 0) break;
        const ourIndex = children.indexOf(ourName);
        if (ourIndex < 0 && ourNodeShouldExist) {
          if (connection.dropped) break; // our ephemeral node went with the session
          throw new IllegalRecipeStateError(`our member node ${this.ourPath} is missing`);
        }
        if (children.length === 1) {
          if (ourNodeShouldExist && children[0] !== ourName) {
            throw new IllegalRecipeStateError(`the last member ${children[0]} is not ours (${ourName})`);
          }
          if (ourNodeShouldExist) await deadline.guard(this.#deleteOurs());
          ourNodeShouldExist = false;
          break;
        }
        const wakeup = new Wakeup(this.#client);
        let stat: unknown;
        try {
          if (ourIndex === 0) {
            stat = await deadline.guard(
              this.#client.exists(`${this.path}/${children.at(-1)}`, { watch: wakeup.watcher }),
            );
          } else {
            stat = await deadline.guard(
              this.#client.exists(`${this.path}/${children[0]}`, { watch: wakeup.watcher }),
            );
            if (ourNodeShouldExist) await deadline.guard(this.#deleteOurs());
            ourNodeShouldExist = false;
          }
        } catch (error) {
          wakeup.dispose();
          throw error;
        }
        if (stat === null) wakeup.dispose();
        else await wakeup.wait(deadline);
      }
      this.#entered = false;
      await this.#deleteReady();
      return true;
    } catch (error) {
      this.#entered = ourNodeShouldExist;
      if (error instanceof DeadlineExpired) return false;
      throw connection.lostOr(error);
    } finally {
      connection.stop();
    }
  }

  /** Ends calls in progress and removes our member node if it is still there. Idempotent. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#scope.close();
    if (this.#entered) {
      this.#entered = false;
      await deleteGuaranteed(this.#client, this.ourPath);
    }
  }

  async #createMember(data: Uint8Array): Promise<void> {
    await createWithContainerParents(this.#client, this.ourPath, data, 'ephemeral');
  }

  async #createReady(data: Uint8Array): Promise<void> {
    try {
      await this.#client.create(this.#readyPath, data, { mode: 'persistent' });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }

  #deleteOurs(): Promise<void> {
    return deleteIfPresent(this.#client, this.ourPath);
  }

  #deleteReady(): Promise<void> {
    return deleteIfPresent(this.#client, this.#readyPath);
  }

  /** Member names without `ready`, in Java's natural String order; a missing barrier node has none. */
  async #membersSorted(deadline: Deadline): Promise<string[]> {
    const children = await deadline.guard(childrenOrNone(this.#client, this.path));
    return children.filter((name) => name !== READY_NODE).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Gives up an enter: our member node must not count for others any longer. */
  async #abandon(creation: Promise<boolean> | undefined): Promise<void> {
    this.#entered = false;
    if (creation && (await creation)) await deleteGuaranteed(this.#client, this.ourPath).catch(() => {});
  }

  /**
   * Notes whether the connection dropped during a call (Curator's watcher sees a non-SyncConnected state).
   * `lostOr` gives a call that failed with ConnectionLoss (the drop came while it was in flight, before the
   * state listener heard of it) the same CONNECTION_LOST as a drop seen between calls.
   */
  #watchConnection(): {
    readonly dropped: boolean;
    check(): void;
    lostOr(error: unknown): unknown;
    stop(): void;
  } {
    let dropped = false;
    const stop = onClientState(this.#client, (state) => {
      if (state === 'suspended' || state === 'lost') dropped = true;
    });
    const path = this.path;
    return {
      get dropped() {
        return dropped;
      },
      check() {
        if (dropped) throw new RecipeConnectionLostError(`the connection was lost while waiting at ${path}`);
      },
      lostOr(error) {
        if (!isConnectionLoss(error)) return error;
        return new RecipeConnectionLostError(`the connection was lost while waiting at ${path}`, {
          cause: error,
        });
      },
      stop,
    };
  }
}
