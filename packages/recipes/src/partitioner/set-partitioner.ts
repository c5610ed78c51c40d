/**
 * SetPartitioner (kazoo's `kazoo.recipe.partitioner.SetPartitioner`, which Curator lacks): the members of a
 * party divide a set of items so that each item has one owner, and divide it again when members join or
 * leave. The layout is kazoo 2.x's, so Node and kazoo members share one partitioning: members are a
 * ShallowParty under `<path>/party`, and each owned item is held by a kazoo Lock at `<path>/locks/<item>`.
 *
 * As in kazoo: once the members have stayed unchanged for `timeBoundaryMs`, each member computes its share
 * with the partition function and takes its items' locks, `maxReactionTimeMs` at a time, giving them back as
 * soon as the members change under it. A change after the share is held, or any connection change, moves
 * the state to `release`: the owner calls `releaseSet()` and the set is divided again. A lost session moves
 * it to `failure`, from which there is no way back (make a new partitioner).
 */
import { EventEmitter } from 'node:events';
import { Deadline, DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import { IllegalRecipeStateError } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { validateRecipePath } from '../internal-common/validate.js';
import {
  onClientState,
  type RecipeClient,
  type RecipeConnectionState,
} from '../internal-common/zk-client.js';
import { isSessionExpired } from '../internal-common/zk-errors.js';
import { ensurePath, KazooLock } from './kazoo-lock.js';
import {
  PartitionFailedError,
  type PartitionFailureReason,
  PartitionState,
  type ResolvedPartitionerOptions,
  resolvePartitionerOptions,
  type SetPartitionerEvents,
  type SetPartitionerOptions,
} from './partitioner-options.js';
import { type ChangeFlag, settledMembers } from './patient-children.js';
import { partyMemberOf, ShallowParty } from './shallow-party.js';

/** Divides a set of items among the members of a party, each item to one member, as kazoo's. */
export class SetPartitioner extends EventEmitter<SetPartitionerEvents> implements AsyncDisposable {
  /** The partitioner's root: `party` and `locks` are its children. */
  readonly path: string;
  readonly #client: RecipeClient;
  readonly #options: ResolvedPartitionerOptions;
  readonly #party: ShallowParty;
  readonly #lockPath: string;
  #state: PartitionState = PartitionState.ALLOCATING;
  /** Bumped by every state change: an allocation that sees it moved knows it was overtaken. */
  #stateId = 0;
  #owned: readonly string[] = [];
  #locks: KazooLock[] = [];
  #failure: PartitionFailedError | undefined;
  #started = false;
  #stopStates: (() => void) | undefined;
  /** Aborted when the allocation under way is superseded (a new one, or failure). */
  #allocation: AbortController | undefined;
  readonly #changes = new EventEmitter();
  /** Calls our listeners: one that throws changes nothing here. */
  readonly #reporter: Reporter<SetPartitionerEvents>;

  constructor(client: RecipeClient, path: string, options: SetPartitionerOptions) {
    super();
    this.path = validateRecipePath(path);
    this.#options = resolvePartitionerOptions(options);
    this.#client = client;
    this.#reporter = new Reporter(this, client, `SetPartitioner ${this.path}`);
    this.#lockPath = `${this.path}/locks`;
    this.#party = new ShallowParty(client, `${this.path}/party`, this.#options.identifier);
  }

  /** Our member identifier. */
  get identifier(): string {
    return this.#options.identifier;
  }

  /** The current state (kazoo's `state`). */
  get state(): PartitionState {
    return this.#state;
  }

  /** Our share while `acquired` (and until it is released): every one of them is locked by us. */
  get items(): readonly string[] {
    return this.#owned;
  }

  /** Why the partitioner failed; undefined unless its state is `failure`. */
  get failure(): PartitionFailedError | undefined {
    return this.#failure;
  }

  /** Our share (kazoo's `iter(partitioner)`). */
  [Symbol.iterator](): Iterator<string> {
    return this.#owned[Symbol.iterator]();
  }

  /**
   * Joins the party (creating `<path>`, `<path>/party` and `<path>/locks` as needed) and begins allocating.
   * Resolves once we are a member; the share comes later (`waitForAcquire`).
   */
  async start(): Promise<void> {
    if (this.#started) throw new IllegalRecipeStateError('SetPartitioner was already started');
    this.#started = true;
    try {
      await ensurePath(this.#client, this.#lockPath);
      await this.#party.join();
    } catch (error) {
      void this.#failOut('error', error);
      throw error;
    }
    this.#stopStates = onClientState(this.#client, (state) => this.#onConnectionState(state));
    if (this.#client.state === 'expired') void this.#failOut('session-lost');
    else this.#allocate();
  }

  /**
   * Waits until our share is held. True once the state is `acquired`, false when the timeout passes first;
   * rejects with the {@link PartitionFailedError} when the partitioner fails, and with the abort reason.
   */
  async waitForAcquire(options?: WaitOptions): Promise<boolean> {
    const deadline = Deadline.of(options);
    for (;;) {
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#state === PartitionState.ACQUIRED) return true;
      const changed = new Promise<void>((resolve) => this.#changes.once('state', resolve));
      try {
        await deadline.guard(changed);
      } catch (error) {
        if (error instanceof DeadlineExpired) return false;
        throw error;
      }
    }
  }

  /** Gives back our share's locks and divides the set again (kazoo's `release_set`). */
  async releaseSet(): Promise<void> {
    this.#checkStarted();
    await this.#releaseLocks();
    if (this.#locks.length > 0) {
      this.#failOut('error', new Error('some item locks could not be released'));
      return;
    }
    if (this.#failure !== undefined) return;
    this.#setState(PartitionState.ALLOCATING);
    this.#allocate();
  }

  /** Gives back our share and leaves the party; the state becomes `failure` (kazoo's `finish`). */
  async finish(): Promise<void> {
    await this.#releaseLocks();
    await this.#failOut('finished');
  }

  /** `await using`: finish. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#failure === undefined) await this.finish();
  }

  #checkStarted(): void {
    if (!this.#started) throw new IllegalRecipeStateError('SetPartitioner was not started');
  }

  #onConnectionState(state: RecipeConnectionState): void {
    if (this.#failure !== undefined) return;
    if (state === 'lost') void this.#failOut('session-lost');
    // Our locks may have been lost with the connection, or may not: kazoo asks for a release either way.
    else if (this.#state !== PartitionState.RELEASE) this.#setState(PartitionState.RELEASE);
  }

  #setState(state: PartitionState): void {
    this.#state = state;
    this.#stateId += 1;
    this.#changes.emit('state');
    this.#reporter.emit('state', state);
  }

  /** Starts one allocation round in the background, superseding the one under way. */
  #allocate(): void {
    this.#allocation?.abort();
    const controller = new AbortController();
    this.#allocation = controller;
    this.#allocateRound(controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) return; // superseded or failed already: nothing left to say
      const reason = isSessionExpired(error) ? 'session-lost' : 'error';
      void this.#releaseLocks().then(() => this.#failOut(reason, error));
    });
  }

  /** kazoo's `_allocate_transition`, after the members settled. */
  async #allocateRound(signal: AbortSignal): Promise<void> {
    const settled = await settledMembers(
      this.#client,
      this.#party,
      this.#options.timeBoundaryMs,
      Deadline.of({ signal }),
    );
    if (this.#state !== PartitionState.ALLOCATING || signal.aborted) return;
    const stateId = this.#stateId;
    settled.changed.onSet(() => {
      if (this.#state === PartitionState.ACQUIRED) this.#setState(PartitionState.RELEASE);
    });
    const share = this.#share(settled.children.map(partyMemberOf));
    for (const item of share) {
      const lock = new KazooLock(this.#client, `${this.#lockPath}/${item}`, new Uint8Array(0));
      for (;;) {
        // A bounded attempt, so that a change of members is noticed while another member holds the item.
        const deadline = Deadline.of({ timeoutMs: this.#options.maxReactionTimeMs, signal });
        if (await lock.acquire(deadline)) break;
        if (await this.#abortIfNeeded(stateId, settled.changed)) return;
      }
      this.#locks.push(lock);
      if (await this.#abortIfNeeded(stateId, settled.changed)) return;
    }
    if (this.#stateId === stateId && !settled.changed.isSet) {
      this.#owned = share;
      this.#setState(PartitionState.ACQUIRED);
      return;
    }
    if (!(await this.#abortIfNeeded(stateId, settled.changed))) {
      throw new Error('allocation ended in an unexpected state');
    }
  }

  /** Our share from the partition function, checked: items of the set, each once. */
  #share(members: string[]): string[] {
    const { identifier, items, partitionFunction } = this.#options;
    const share = partitionFunction(identifier, members, items);
    const known = new Set(items);
    const result = [...share];
    if (result.some((item) => !known.has(item)) || new Set(result).size !== result.length) {
      throw new Error('the partition function returned items outside the set, or an item twice');
    }
    return result;
  }

  /**
   * kazoo's `abort_if_needed`: true when this round must stop. Members changed under it: give back what it
   * took and start again. The state moved on (a connection change, a release, a failure): stop, asking for
   * a release unless failed (a failed partitioner gives back what the round took).
   */
  async #abortIfNeeded(stateId: number, changed: ChangeFlag): Promise<boolean> {
    if (this.#stateId === stateId) {
      if (!changed.isSet) return false;
      await this.#releaseLocks();
      if (this.#locks.length > 0) await this.#failOut('error', new Error('item locks could not be released'));
      else if (this.#stateId === stateId) this.#allocate();
      return true;
    }
    if (this.#failure !== undefined) await this.#releaseLocks();
    else if (this.#state === PartitionState.ALLOCATING || this.#state === PartitionState.ACQUIRED) {
      this.#setState(PartitionState.RELEASE);
    }
    return true;
  }

  async #releaseLocks(): Promise<void> {
    this.#owned = [];
    for (const lock of [...this.#locks]) {
      try {
        await lock.release();
        this.#locks.splice(this.#locks.indexOf(lock), 1);
      } catch {
        // Kept in the list: the caller finds it there and fails, as kazoo's.
      }
    }
  }

  /** Enters the failure state for good, and leaves the party (kazoo's `_fail_out`). */
  async #failOut(reason: PartitionFailureReason, cause?: unknown): Promise<void> {
    if (this.#failure !== undefined) return;
    this.#failure = new PartitionFailedError(this.path, reason, cause);
    this.#allocation?.abort();
    this.#stopStates?.();
    this.#setState(PartitionState.FAILURE);
    await this.#releaseLocks();
    if (this.#party.participating) await this.#party.leave().catch(() => {});
  }
}
