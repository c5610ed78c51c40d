/**
 * LeaderLatch (Curator's `leader.LeaderLatch`, curator/leader.md §7.1): every participant holds a protected
 * EPHEMERAL_SEQUENTIAL node `L/_c_<uuid>-latch-<seq>` whose data is its id in UTF-8; the lowest (sorted by the
 * text after the last `latch-`) leads, and every other one watches only its predecessor with `getData`.
 *
 * Connection states follow Curator 5.x with the default error policy: SUSPENDED and LOST end leadership;
 * RECONNECTED re-joins with a fresh node (`reset`). Before claiming leadership the latch checks that its node
 * belongs to the current session (Curator 5.7, CURATOR-696), so a node of an expired session never leads.
 *
 * Beyond Curator: while leading, `fencingToken` is our node's sequence number and `leadershipSignal` is an
 * AbortSignal aborted (with a HoldLostError) when the leadership may be gone, and a `lost` event says why;
 * `await()` takes a timeout and a signal; `await using` closes the latch.
 */
import { EventEmitter } from 'node:events';
import {
  type CompressionProvider,
  compressData,
  resolveCompression,
} from '../internal-common/compression.js';
import { DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import { publishLeadership } from '../internal-common/diagnostics.js';
import { FencedWriter, holdCheck } from '../internal-common/fenced-writer.js';
import { deleteGuaranteed } from '../internal-common/guaranteed-delete.js';
import { HoldLostError, type LostEvent, type LostPolicy } from '../internal-common/hold-monitor.js';
import { childrenOrNone } from '../internal-common/missing-node.js';
import { createProtected } from '../internal-common/protected-create.js';
import { IllegalRecipeStateError, InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import {
  adoptOwnNode,
  type RecipeHandoff,
  recipeHandoff,
  recipeHandoffArg,
} from '../internal-common/recipe-handoff.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { sequenceOf, sortContenders } from '../internal-common/sequence-sort.js';
import { validateRecipePath } from '../internal-common/validate.js';
import {
  onClientState,
  type RecipeClient,
  type RecipeConnectionState,
} from '../internal-common/zk-client.js';
import { isNoNode, isRetryable } from '../internal-common/zk-errors.js';
import { DisposeScope } from '../shared/dispose-scope.js';
import {
  CloseMode,
  LATCH_LOCK_NAME,
  type LeaderLatchEvents,
  type LeaderLatchOptions,
  type LeaderLatchState,
} from './leader-latch-options.js';
import { type Participant, readLeader, readParticipants } from './participants.js';

/** A leader election in which every participant waits in line and the first one leads until it leaves. */
export class LeaderLatch extends EventEmitter<LeaderLatchEvents> implements AsyncDisposable {
  /** The election's parent node. */
  readonly path: string;
  /** Our participant id, stored as the data of our latch node. */
  readonly id: string;
  readonly #client: RecipeClient;
  /** Our id as our node holds it (compressed with the `compression` option). */
  readonly #idBytes: Uint8Array;
  readonly #compression: CompressionProvider | undefined;
  readonly #closeMode: CloseMode;
  readonly #lostOn: LostPolicy;
  readonly #scope = new DisposeScope('LeaderLatch');
  /** Calls our listeners (one that throws changes nothing here) and reports background failures. */
  readonly #reporter: Reporter<LeaderLatchEvents>;
  #state: LeaderLatchState = 'latent';
  #ourPath: string | undefined;
  /** Bumped by every reset and by close, so answers to an older round are ignored. */
  #round = 0;
  #term: AbortController | undefined;
  /** The fencing token of the current term (our node's sequence when the term began). */
  #termToken: number | undefined;
  #leadershipChanged = new EventEmitter();
  #stopStates: (() => void) | undefined;
  /** A session was lost since the last re-join: the next 'connected' is a new session and must re-join. */
  #sessionLost = false;

  constructor(client: RecipeClient, path: string, options: LeaderLatchOptions = {}) {
    super();
    this.#client = client;
    this.path = validateRecipePath(path);
    this.#reporter = new Reporter(this, client, `LeaderLatch ${this.path}`);
    this.id = options.id ?? '';
    if (typeof this.id !== 'string') throw new InvalidRecipeArgumentError('id', 'must be a string');
    if (options.closeMode !== undefined && !Object.values(CloseMode).includes(options.closeMode)) {
      throw new InvalidRecipeArgumentError(
        'closeMode',
        `must be one of ${Object.values(CloseMode).join(', ')}`,
      );
    }
    this.#compression = resolveCompression(options.compression);
    this.#idBytes = compressData(this.#compression, this.path, new TextEncoder().encode(this.id));
    this.#closeMode = options.closeMode ?? CloseMode.SILENT;
    this.#lostOn = options.lostOn ?? 'suspended';
  }

  /** `latent` before start, `started`, then `closed`. */
  get state(): LeaderLatchState {
    return this.#state;
  }

  /** True while we lead. */
  get hasLeadership(): boolean {
    return this.#term !== undefined;
  }

  /** Our node, once created. */
  get ourPath(): string | undefined {
    return this.#ourPath;
  }

  /**
   * While we lead: aborted, with a HoldLostError, when the leadership may be gone (connection suspended,
   * session lost) or has ended (close, reset). Undefined while we do not lead.
   */
  get leadershipSignal(): AbortSignal | undefined {
    return this.#term?.signal;
  }

  /**
   * While we lead: the fencing token of this term, our latch node's sequence number; undefined while we do
   * not lead. Each new leader's node sorts after every earlier leader's (the leader is always the lowest node
   * and new nodes get higher numbers), so tokens grow from term to term, and a resource that remembers the
   * highest token it has seen can refuse a stale leader. A latch that re-joins gets a new node, so a new token.
   */
  get fencingToken(): number | undefined {
    return this.#term === undefined ? undefined : this.#termToken;
  }

  /**
   * While we lead: a writer whose writes ZooKeeper applies only while our latch node exists, so a leader that
   * lost its node cannot write; it refuses before sending once this term ends or may be gone. Throws
   * IllegalRecipeStateError when we do not lead.
   */
  fenced(): FencedWriter {
    const term = this.#term;
    const path = this.#ourPath;
    if (term === undefined || path === undefined) {
      throw new IllegalRecipeStateError(`LeaderLatch at ${this.path} does not lead`);
    }
    return new FencedWriter(
      this.#client,
      path,
      holdCheck(path, () => this.#term === term, term.signal),
    );
  }

  /** Joins the election: resolves once our node exists and leadership has been checked. */
  async start(): Promise<void> {
    if (this.#state !== 'latent') throw new IllegalRecipeStateError('LeaderLatch was already started');
    this.#state = 'started';
    this.#stopStates = onClientState(this.#client, (state) => this.#onState(state));
    await this.#reset();
  }

  /**
   * Waits until we lead. True once we do; false when the timeout passes first or the latch is closed.
   * Rejects with the abort reason when the signal aborts.
   */
  async await(options?: WaitOptions): Promise<boolean> {
    const deadline = this.#scope.deadline(options);
    if (this.#state !== 'started') throw new IllegalRecipeStateError('LeaderLatch is not started');
    let onChange: (() => void) | undefined;
    try {
      await deadline.guard(
        new Promise<void>((resolve) => {
          onChange = () => {
            if (this.hasLeadership) resolve();
          };
          this.#leadershipChanged.on('change', onChange);
          onChange();
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof DeadlineExpired) return false;
      if (this.#scope.closed && !options?.signal?.aborted) return false;
      throw error;
    } finally {
      if (onChange) this.#leadershipChanged.off('change', onChange);
    }
  }

  /** The participants in line, the leader first (ids read from the nodes). */
  getParticipants(): Promise<Participant[]> {
    return readParticipants(this.#client, this.path, LATCH_LOCK_NAME, undefined, this.#compression);
  }

  /** The current leader, or a participant with id `''` and `isLeader` false when nobody stands. */
  getLeader(): Promise<Participant> {
    return readLeader(this.#client, this.path, LATCH_LOCK_NAME, this.#compression);
  }

  /** Leaves the election: deletes our node. `mode` overrides the constructor's close mode. Idempotent. */
  async close(mode: CloseMode = this.#closeMode): Promise<void> {
    if (this.#state === 'closed') return;
    const wasStarted = this.#state === 'started';
    const ourPath = this.#ourPath;
    this.#end('LeaderLatch was closed', mode === 'notify-leader');
    if (wasStarted && ourPath !== undefined) await deleteGuaranteed(this.#client, ourPath);
  }

  /**
   * Hands our place in the election (and the leadership, if we lead) on with the session (session
   * hand-off): this latch ends without deleting its node (state `closed`, no `notLeader` event; a term's
   * `leadershipSignal` aborts), and the returned plain object lets {@link LeaderLatch.resume} take the node
   * over in the client that resumes the session. Call it before the client's `detach()`.
   * IllegalRecipeStateError when the latch is not started or has no node yet.
   */
  handOff(): RecipeHandoff {
    const ourPath = this.#ourPath;
    if (this.#state !== 'started' || ourPath === undefined) {
      throw new IllegalRecipeStateError(`LeaderLatch at ${this.path} has no node to hand off`);
    }
    this.#end('LeaderLatch was handed off', false);
    return recipeHandoff('LeaderLatch', this.path, ourPath);
  }

  /**
   * Leaves the election without touching our node (closing deletes it, a hand-off leaves it): state `closed`,
   * no more rounds or state changes, and the leadership, if we had it, ends for `why`.
   */
  #end(why: string, notify: boolean): void {
    this.#state = 'closed';
    this.#round += 1;
    this.#stopStates?.();
    this.#stopStates = undefined;
    this.#scope.close();
    this.#endLeadership(new IllegalRecipeStateError(why), notify);
    this.#ourPath = undefined;
  }

  /**
   * The latch that `handoff` ({@link LeaderLatch.handOff}) names, started on `client`, which must have
   * resumed the session (`connect({ session })`): it adopts the node, after checking that it exists and is
   * this session's, and takes the leadership back at once if the node is still first in line (else it waits
   * its turn as any participant). Give the `options` (id, compression) the first latch had.
   * @throws InvalidRecipeArgumentError for a bad hand-off (before anything is sent); HandoffRefusedError
   *   when the node is gone or another session's.
   */
  static async resume(
    client: RecipeClient,
    handoff: RecipeHandoff,
    options: LeaderLatchOptions = {},
  ): Promise<LeaderLatch> {
    const checked = recipeHandoffArg(handoff, 'LeaderLatch', (path) => path);
    const latch = new LeaderLatch(client, checked.path, options);
    await adoptOwnNode(client, checked.nodePath, true);
    await latch.#adopt(checked.nodePath);
    return latch;
  }

  /** Starts with `ourPath` as our node (already checked to be ours), then checks the leadership. */
  async #adopt(ourPath: string): Promise<void> {
    this.#state = 'started';
    this.#stopStates = onClientState(this.#client, (state) => this.#onState(state));
    const round = ++this.#round;
    this.#ourPath = ourPath;
    await this.#checkLeadership(round);
  }

  /** Same as `close()` with the constructor's close mode, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Drops our node (if any) and stands again with a fresh one. */
  async #reset(): Promise<void> {
    const round = ++this.#round;
    this.#endLeadership(new IllegalRecipeStateError('LeaderLatch re-joined the election'), true);
    const oldPath = this.#ourPath;
    this.#ourPath = undefined;
    if (oldPath !== undefined)
      void deleteGuaranteed(this.#client, oldPath).catch((error) => this.#report(error));
    const { path } = await createProtected(this.#client, {
      parentPath: this.path,
      name: LATCH_LOCK_NAME,
      data: this.#idBytes,
      mode: 'ephemeral-sequential',
    });
    if (round !== this.#round) {
      // Closed or reset while the create was in flight: this node is nobody's.
      await deleteGuaranteed(this.#client, path);
      return;
    }
    this.#ourPath = path;
    await this.#checkLeadership(round);
  }

  async #checkLeadership(round: number): Promise<void> {
    // No children when the latch path itself vanished (Curator 5.8 resets too).
    const children = await childrenOrNone(this.#client, this.path);
    const ourPath = this.#ourPath;
    if (round !== this.#round || ourPath === undefined) return;
    const sorted = sortContenders(children, LATCH_LOCK_NAME);
    const ourIndex = sorted.indexOf(ourPath.slice(this.path.length + 1));
    if (ourIndex < 0) {
      await this.#reset();
    } else if (ourIndex === 0) {
      await this.#claimLeadership(round, ourPath);
    } else {
      this.#endLeadership(new IllegalRecipeStateError('LeaderLatch is no longer first in line'), true);
      await this.#watchPredecessor(round, `${this.path}/${sorted[ourIndex - 1]}`);
    }
  }

  /** Leads only if our node is still of our current session; otherwise stands again. */
  async #claimLeadership(round: number, ourPath: string): Promise<void> {
    let owner: bigint | undefined;
    try {
      owner = (await this.#client.getData(ourPath)).stat.ephemeralOwner;
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
    if (round !== this.#round) return;
    if (owner === this.#client.sessionId) this.#beginLeadership(ourPath);
    else await this.#reset();
  }

  async #watchPredecessor(round: number, predecessor: string): Promise<void> {
    // Curator re-checks on NodeDeleted only; any other event (a data change) would leave us without a watch,
    // so every event but a watch removal triggers a re-check, which arms a new one.
    const watcher = (event: { type: string }) => {
      if (round === this.#round && !event.type.endsWith('WatchRemoved')) {
        this.#inBackground(() => this.#checkLeadership(round));
      }
    };
    try {
      await this.#client.getData(predecessor, { watch: watcher });
    } catch (error) {
      if (!isNoNode(error)) throw error;
      if (round === this.#round) await this.#checkLeadership(round);
    }
  }

  #onState(state: RecipeConnectionState): void {
    if (this.#state !== 'started') return;
    if (state === 'suspended' && this.#lostOn === 'suspended') this.#lose('suspended');
    else if (state === 'lost') {
      this.#sessionLost = true;
      this.#lose('lost');
    } else if (state === 'reconnected' || (state === 'connected' && this.#sessionLost)) {
      this.#sessionLost = false;
      if (this.#lostOn === 'suspended' || !this.hasLeadership) this.#inBackground(() => this.#reset());
      // A leader kept through the disconnection re-reads the line (Curator 5.8, CURATOR-724): its node may
      // have been deleted meanwhile, and another contender may lead already.
      else this.#inBackground(() => this.#checkLeadership(this.#round));
    }
  }

  #lose(reason: 'suspended' | 'lost'): void {
    const path = this.#ourPath;
    if (!this.hasLeadership || path === undefined) return;
    const event: LostEvent = { reason, path };
    this.#endLeadership(new HoldLostError(event), true, event);
  }

  #beginLeadership(ourPath: string): void {
    if (this.#term !== undefined || this.#state !== 'started') return;
    this.#termToken = sequenceOf(ourPath);
    this.#term = new AbortController();
    publishLeadership(() => ({ event: 'gained', recipe: 'LeaderLatch', path: this.path, id: this.id }));
    this.#leadershipChanged.emit('change');
    this.#reporter.emit('isLeader');
  }

  /** Ends the current term: aborts its signal, then tells the listeners. */
  #endLeadership(reason: unknown, notify: boolean, lost?: LostEvent): void {
    const term = this.#term;
    if (term === undefined) return;
    this.#term = undefined;
    this.#termToken = undefined;
    publishLeadership(() => ({
      event: 'lost',
      recipe: 'LeaderLatch',
      path: this.path,
      id: this.id,
      reason: lost?.reason ?? (this.#state === 'closed' ? 'closed' : undefined),
    }));
    term.abort(reason);
    this.#leadershipChanged.emit('change');
    if (lost) this.#reporter.emit('lost', lost);
    if (notify) this.#reporter.emit('notLeader');
  }

  /** Runs a step whose failure cannot reach a caller; connection problems wait for the next state change. */
  #inBackground(step: () => Promise<void>): void {
    step().catch((error: unknown) => this.#report(error));
  }

  #report(error: unknown): void {
    if (this.#state !== 'started' || isRetryable(error)) return;
    this.#reporter.background(error, 'a background step failed');
  }
}
