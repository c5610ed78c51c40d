/**
 * InterProcessSemaphoreV2 (curator/locks.md §3): at most `maxLeases` leases at a time across processes.
 * Acquirers queue on an InterProcessMutex at `<path>/locks`; the one holding it creates its lease node
 * `<path>/leases/_c_<uuid>-lease-<seq>` and waits (children watch) until the lease count is within the
 * maximum, then lets the next acquirer in. The maximum is not stored in ZooKeeper: every participant must
 * use the same number, or follow the same SharedCount.
 */

import { onCountChange, readCount, type SharedCountReader } from '../internal-common/count-source.js';
import { Deadline, DeadlineExpired } from '../internal-common/deadline.js';
import { nodeDataOf } from '../internal-common/default-data.js';
import { abandonCreate, deleteOnGiveUp } from '../internal-common/guaranteed-delete.js';
import type { LostPolicy } from '../internal-common/hold-monitor.js';
import { childrenOrNone } from '../internal-common/missing-node.js';
import { createProtected } from '../internal-common/protected-create.js';
import { InvalidRecipeArgumentError, NodeLostError } from '../internal-common/recipe-errors.js';
import { validatePositiveInteger, validateRecipePath } from '../internal-common/validate.js';
import { Wakeup } from '../internal-common/wakeup.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNoNode } from '../internal-common/zk-errors.js';
import type { AcquireOptions } from './interprocess-lock.js';
import { InterProcessMutex } from './interprocess-mutex.js';
import { Lease } from './lease.js';

/** Curator's lease node name. */
export const LEASE_NAME = 'lease-';

/** Options of a semaphore. */
export interface InterProcessSemaphoreOptions {
  /** Data of our lease nodes (Curator's `setNodeData`); default: the local address. */
  nodeData?: Uint8Array | string;
  /** Which connection state reports a lease as lost: 'suspended' (default) or only 'lost'. */
  lostOn?: LostPolicy;
}

const MAX_NODE_RECREATES = 3;

/** A counting semaphore across processes, compatible with Curator's InterProcessSemaphoreV2. */
export class InterProcessSemaphoreV2 implements AsyncDisposable {
  readonly #client: RecipeClient;
  readonly #path: string;
  readonly #leasesPath: string;
  readonly #max: number | SharedCountReader;
  readonly #options: InterProcessSemaphoreOptions;
  readonly #open = new Set<Lease>();

  /**
   * @param client a connected client
   * @param path the semaphore path (`locks/` and `leases/` live under it)
   * @param maxLeases the maximum, the same in every participant, or a SharedCount every participant follows
   */
  constructor(
    client: RecipeClient,
    path: string,
    maxLeases: number | SharedCountReader,
    options: InterProcessSemaphoreOptions = {},
  ) {
    this.#path = validateRecipePath(path);
    this.#leasesPath = `${this.#path}/leases`;
    if (typeof maxLeases === 'number') validatePositiveInteger(maxLeases, 'maxLeases');
    else if (typeof (maxLeases as { on?: unknown } | null)?.on !== 'function') {
      // Refused here, not deep inside acquire: e.g. an options object passed where the count belongs.
      throw new InvalidRecipeArgumentError('maxLeases', 'must be a positive integer or a SharedCountReader');
    }
    this.#client = client;
    this.#max = maxLeases;
    this.#options = options;
  }

  /** The current maximum number of leases. */
  get maxLeases(): number {
    return typeof this.#max === 'number' ? this.#max : readCount(this.#max);
  }

  /** Takes one lease; resolves null when `timeoutMs` passed first, rejects with the reason when aborted. */
  async acquire(options?: AcquireOptions): Promise<Lease | null> {
    return this.#acquireOne(Deadline.of(options));
  }

  /**
   * Takes `qty` leases, one after another, each through the full procedure; all or none: on timeout or
   * error the leases already taken are returned.
   */
  async acquireMany(qty: number, options?: AcquireOptions): Promise<Lease[] | null> {
    validatePositiveInteger(qty, 'qty');
    const deadline = Deadline.of(options);
    const leases: Lease[] = [];
    try {
      while (leases.length < qty) {
        const lease = await this.#acquireOne(deadline);
        if (lease === null) {
          await this.returnAll(leases);
          return null;
        }
        leases.push(lease);
      }
      return leases;
    } catch (error) {
      await this.returnAll(leases).catch(() => {});
      throw error;
    }
  }

  /** Returns a lease (same as `lease.close()`). */
  async returnLease(lease: Lease): Promise<void> {
    await lease.close();
  }

  /** Returns every lease given. */
  async returnAll(leases: Iterable<Lease>): Promise<void> {
    for (const lease of [...leases]) await lease.close();
  }

  /** The raw names of the lease nodes (Curator's `getParticipantNodes`). */
  getParticipantNodes(): Promise<string[]> {
    return childrenOrNone(this.#client, this.#leasesPath);
  }

  /** Returns every lease this object gave out that is still open. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.returnAll(this.#open);
  }

  async #acquireOne(deadline: Deadline): Promise<Lease | null> {
    const { lostOn = 'suspended' } = this.#options;
    const startedAt = performance.now();
    // A fresh mutex per acquisition: the mutex is reentrant per object, and two acquisitions of this
    // semaphore must queue like two processes would.
    const gate = new InterProcessMutex(this.#client, `${this.#path}/locks`, { lostOn });
    if (!(await gate.acquire(deadline.toOptions()))) return null;
    try {
      for (let recreated = 0; ; recreated++) {
        const leasePath = await this.#createLease(deadline);
        if (leasePath === null) return null;
        let outcome: 'acquired' | 'missing';
        try {
          outcome = await this.#waitForRoom(leasePath, deadline);
        } catch (error) {
          await deleteOnGiveUp(this.#client, leasePath);
          if (error instanceof DeadlineExpired) return null;
          throw error;
        }
        if (outcome === 'acquired') {
          const waitMs = performance.now() - startedAt;
          const lease = new Lease(
            this.#client,
            leasePath,
            lostOn,
            (closed) => this.#open.delete(closed),
            waitMs,
          );
          this.#open.add(lease);
          return lease;
        }
        if (recreated >= MAX_NODE_RECREATES) throw new NodeLostError(this.#leasesPath);
      }
    } finally {
      await gate.release().catch(() => {});
    }
  }

  async #createLease(deadline: Deadline): Promise<string | null> {
    const data = await nodeDataOf(this.#options.nodeData);
    const creating = createProtected(this.#client, {
      parentPath: this.#leasesPath,
      name: LEASE_NAME,
      data,
      mode: 'ephemeral-sequential',
    });
    try {
      return (await deadline.guard(creating)).path;
    } catch (error) {
      await abandonCreate(this.#client, creating);
      if (error instanceof DeadlineExpired) return null;
      throw error;
    }
  }

  /** Waits until the lease count (every child counts) is within the maximum. */
  async #waitForRoom(leasePath: string, deadline: Deadline): Promise<'acquired' | 'missing'> {
    const ourName = leasePath.slice(this.#leasesPath.length + 1);
    for (;;) {
      const wakeup = new Wakeup(this.#client);
      const stopFollowingMax =
        typeof this.#max === 'number' ? () => {} : onCountChange(this.#max, () => wakeup.wake());
      try {
        let children: string[];
        try {
          children = await deadline.guard(
            this.#client.getChildren(this.#leasesPath, { watch: wakeup.watcher }),
          );
        } catch (error) {
          if (isNoNode(error)) return 'missing';
          throw error;
        }
        if (!children.includes(ourName)) return 'missing';
        if (children.length <= this.maxLeases) return 'acquired';
        await wakeup.wait(deadline);
      } finally {
        wakeup.dispose();
        stopFollowingMax();
      }
    }
  }
}
