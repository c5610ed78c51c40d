/**
 * A reentrant lock on one sequential node, owned by the lock object (JavaScript has no threads to own it):
 * acquire twice, release twice. It carries the extras Curator lacks: a fencing token and a "lost" signal per
 * acquisition, and `await using`. InterProcessMutex and both halves of the read-write lock are built on it.
 */
import { EventEmitter } from 'node:events';
import { Deadline, DeadlineExpired } from '../internal-common/deadline.js';
import { FencedWriter, holdCheck } from '../internal-common/fenced-writer.js';
import { deleteGuaranteed } from '../internal-common/guaranteed-delete.js';
import { HoldMonitor, type LostEvent, type LostPolicy } from '../internal-common/hold-monitor.js';
import { InvalidRecipeArgumentError, NotLockOwnerError } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { sequenceOf } from '../internal-common/sequence-sort.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
import { attemptLock, type LockSpec, participantNodes } from './lock-internals.js';
import { type RevocationListener, RevocationWatch } from './revocation.js';

/** Options common to the node locks. */
export interface NodeLockOptions {
  /** Which connection state reports a hold as lost: 'suspended' (default) or only 'lost'. */
  lostOn?: LostPolicy;
}

interface Hold {
  path: string;
  count: number;
  monitor: HoldMonitor;
}

/** Events of a lock object. */
export interface NodeLockEvents {
  /** The current hold may be gone (connection suspended or session lost, or node deleted). */
  lost: [event: LostEvent];
  /** A `lost` listener threw (reported here instead of breaking the lock; see the README's errors section). */
  error: [error: unknown];
}

/** The reentrant core shared by the mutex and the read-write lock halves. */
export class ReentrantNodeLock extends EventEmitter<NodeLockEvents> implements InterProcessLock {
  protected readonly client: RecipeClient;
  protected readonly spec: LockSpec;
  readonly #lostOn: LostPolicy;
  #hold: Hold | undefined;
  #acquiring: Promise<unknown> | undefined;
  /** The revocation listener, bound to this lock. */
  #revocation: (() => unknown) | undefined;
  #revocationWatch: RevocationWatch | undefined;
  /** Calls our listeners: one that throws changes nothing here. */
  readonly #reporter: Reporter<NodeLockEvents>;

  constructor(client: RecipeClient, spec: LockSpec, options: NodeLockOptions = {}) {
    super();
    this.client = client;
    // A revocable lock's node holds no data (as Curator's), so that the revoke marker is the only data it gets.
    this.spec = {
      ...spec,
      nodeData: () => (this.#revocation === undefined ? spec.nodeData() : Promise.resolve(new Uint8Array(0))),
      onContending: (ourPath) => this.#watchRevocation(ourPath),
    };
    this.#reporter = new Reporter(this, client, `lock ${spec.basePath}`);
    this.#lostOn = options.lostOn ?? 'suspended';
  }

  /** The lock path. */
  get basePath(): string {
    return this.spec.basePath;
  }

  /** Our node while held, else undefined. */
  get lockNodePath(): string | undefined {
    return this.#hold?.path;
  }

  /**
   * The fencing token of the current acquisition: our node's sequence number, which grows with each
   * acquisition of this lock, so a resource can refuse a holder with a lower token than one it has seen.
   */
  get fencingToken(): number | undefined {
    const path = this.#hold?.path;
    return path === undefined ? undefined : sequenceOf(path);
  }

  /** Aborted (reason: HoldLostError) when the current hold may be gone; undefined while not held. */
  get lostSignal(): AbortSignal | undefined {
    return this.#hold?.monitor.signal;
  }

  /** How many times this object holds the lock (reentrancy count). */
  get holdCount(): number {
    return this.#hold?.count ?? 0;
  }

  /** True while this object holds the lock (at least once). */
  isAcquiredInThisProcess(): boolean {
    return this.#hold !== undefined;
  }

  /** Hook for subclasses: refuse an acquisition before anything is sent (e.g. an RW-lock upgrade). */
  protected beforeAcquire(): void {}

  /**
   * Takes the lock, or one more hold when this object has it already (reentrant). False on timeout; rejects
   * with the signal's reason on abort; either way our node is gone.
   */
  async acquire(options?: AcquireOptions): Promise<boolean> {
    const deadline = Deadline.of(options);
    const startedAt = performance.now();
    this.beforeAcquire();
    // Another acquire of this same object is under way: wait for it, then re-enter if it succeeded.
    while (this.#acquiring !== undefined) {
      try {
        await deadline.guard(this.#acquiring.catch(() => {}));
      } catch (error) {
        if (error instanceof DeadlineExpired) return false;
        throw error;
      }
    }
    if (this.#hold !== undefined) {
      this.#hold.count += 1;
      return true;
    }
    const attempt = attemptLock(this.client, this.spec, deadline);
    this.#acquiring = attempt;
    let path: string | null;
    try {
      path = await attempt;
    } finally {
      this.#acquiring = undefined;
    }
    if (path === null) return false;
    this.#startHold(path, 1, performance.now() - startedAt);
    return true;
  }

  /** Gives back one hold; the last one deletes our node. NotLockOwnerError when not held. */
  async release(): Promise<void> {
    const hold = this.#hold;
    if (hold === undefined) throw new NotLockOwnerError(this.spec.basePath);
    hold.count -= 1;
    if (hold.count > 0) return;
    this.#endHold(hold);
    await deleteGuaranteed(this.client, hold.path);
  }

  /**
   * Lets go of the hold without deleting its node, for another lock object of the same session to adopt
   * ({@link adoptHold}): its monitor and revocation watch stop, this object no longer holds. Returns the
   * node and the hold count. NotLockOwnerError when not held.
   */
  protected giveUpHold(): { path: string; count: number } {
    const hold = this.#hold;
    if (hold === undefined || this.#acquiring !== undefined) throw new NotLockOwnerError(this.spec.basePath);
    this.#endHold(hold);
    return { path: hold.path, count: hold.count };
  }

  /** Takes `path`, a node of this lock already checked to hold it for our session, as our hold. */
  protected adoptHold(path: string, count: number): void {
    this.#startHold(path, count, 0);
  }

  /** Makes `path` our hold, watched by a new monitor (`waitMs`: how long taking it took). */
  #startHold(path: string, count: number, waitMs: number): void {
    const monitor = new HoldMonitor(
      this.client,
      path,
      this.#lostOn,
      (event) => this.#reporter.emit('lost', event),
      { kind: 'lock', waitMs },
    );
    this.#hold = { path, count, monitor };
    monitor.start();
  }

  /** This object no longer holds: the hold's monitor and the revocation watch stop; its node is left. */
  #endHold(hold: Hold): void {
    this.#hold = undefined;
    hold.monitor.stop();
    this.#revocationWatch?.stop();
  }

  /**
   * A writer whose writes ZooKeeper applies only while this hold's node exists (each one a `multi` behind a
   * `check` of the node), so a holder that lost the lock cannot write; it refuses before sending once the
   * hold is released or reported lost. `signal` ends it sooner. NotLockOwnerError when not held.
   */
  fenced(options: { signal?: AbortSignal } = {}): FencedWriter {
    const hold = this.#hold;
    if (hold === undefined) throw new NotLockOwnerError(this.spec.basePath);
    const stillHeld = () => this.#hold === hold;
    return new FencedWriter(
      this.client,
      hold.path,
      holdCheck(hold.path, stillHeld, hold.monitor.signal, options.signal),
    );
  }

  /**
   * Makes the lock revocable (Curator's `makeRevocable`): `listener` is called when someone asks our node to
   * give up the lock (`Revoker.attemptRevoke` on it, from Node or Java), from the next acquire on; it may be
   * asked while we still wait. Revocation is cooperative: the listener usually calls `release()`.
   */
  makeRevocable(listener: RevocationListener<this>): void {
    if (typeof listener !== 'function')
      throw new InvalidRecipeArgumentError('listener', 'must be a function');
    this.#revocation = () => listener(this);
  }

  #watchRevocation(ourPath: string): void {
    const listener = this.#revocation;
    if (listener === undefined) return;
    this.#revocationWatch?.stop();
    this.#revocationWatch = new RevocationWatch(this.client, ourPath, () =>
      this.#reporter.call('revocation listener', listener),
    );
    this.#revocationWatch.start();
  }

  /** The full paths of all contenders, in lock order (`getParticipantNodes`). */
  getParticipantNodes(): Promise<string[]> {
    return participantNodes(this.client, this.spec);
  }

  /** Releases every hold of this object (for `await using`); does nothing when not held. */
  async [Symbol.asyncDispose](): Promise<void> {
    const hold = this.#hold;
    if (hold === undefined) return;
    hold.count = 1;
    await this.release();
  }
}
