/**
 * A lease of an InterProcessSemaphoreV2: one `_c_<uuid>-lease-<seq>` node under `<path>/leases`. Returned by
 * `close()` (guaranteed delete) or `await using`; carries a fencing token and a "lost" signal.
 */
import { EventEmitter } from 'node:events';
import { FencedWriter, holdCheck } from '../internal-common/fenced-writer.js';
import { deleteGuaranteed } from '../internal-common/guaranteed-delete.js';
import { HoldMonitor, type LostEvent, type LostPolicy } from '../internal-common/hold-monitor.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { sequenceOf } from '../internal-common/sequence-sort.js';
import type { RecipeClient } from '../internal-common/zk-client.js';

/** Events of a {@link Lease}. */
export interface LeaseEvents {
  /** The lease may be gone (connection suspended or session lost, or node deleted). */
  lost: [event: LostEvent];
  /** A `lost` listener threw (reported here instead of breaking the lease; see the README's errors section). */
  error: [error: unknown];
}

/** One lease held from a semaphore. */
export class Lease extends EventEmitter<LeaseEvents> implements AsyncDisposable {
  /** The lease node's full path. */
  readonly nodePath: string;
  readonly #client: RecipeClient;
  readonly #monitor: HoldMonitor;
  readonly #onClose: (lease: Lease) => void;
  #closed = false;

  /** @internal made by the semaphore */
  constructor(
    client: RecipeClient,
    nodePath: string,
    lostOn: LostPolicy,
    onClose: (lease: Lease) => void,
    waitMs = 0,
  ) {
    super();
    this.#client = client;
    this.nodePath = nodePath;
    this.#onClose = onClose;
    const reporter = new Reporter<LeaseEvents>(this, client, `lease ${nodePath}`);
    this.#monitor = new HoldMonitor(client, nodePath, lostOn, (event) => reporter.emit('lost', event), {
      kind: 'lease',
      waitMs,
    });
    this.#monitor.start();
  }

  /** The lease node's sequence number, growing with each lease taken at this path. */
  get fencingToken(): number | undefined {
    return sequenceOf(this.nodePath);
  }

  /** Aborted (reason: HoldLostError) when this lease may be gone. */
  get lostSignal(): AbortSignal {
    return this.#monitor.signal;
  }

  /** True once returned. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * A writer whose writes ZooKeeper applies only while this lease's node exists; it refuses before sending
   * once the lease is closed or reported lost.
   */
  fenced(): FencedWriter {
    const stillHeld = () => !this.#closed;
    return new FencedWriter(
      this.#client,
      this.nodePath,
      holdCheck(this.nodePath, stillHeld, this.lostSignal),
    );
  }

  /** The lease node's data (Curator's `Lease.getData()`). */
  async getData(): Promise<Uint8Array> {
    return (await this.#client.getData(this.nodePath)).data;
  }

  /** Returns the lease; a second call does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#monitor.stop();
    this.#onClose(this);
    await deleteGuaranteed(this.#client, this.nodePath);
  }

  /** Same as `close()`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
