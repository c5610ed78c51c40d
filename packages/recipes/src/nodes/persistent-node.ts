/**
 * PersistentNode (Curator's `nodes.PersistentNode`): a node of any create mode that this client keeps
 * present, with its data, until `close()`, which deletes it.
 *
 * One background loop does the work, one call at a time, so its answers never cross: create the node, arm an
 * exists watch on it (the watch rides on the read itself, so no change slips in between), and write the
 * newest data. A deletion by someone else (the watch, or an exists/setData answering NoNode) and a session
 * expiry (ephemeral modes) send it back to "create". Failures with an unknown outcome (connection loss) wait
 * for the next connection and try again; other failures (no permission, parent missing with parent creation
 * off) stop the loop and are reported as an `error` event until a reconnection or a `setData` restarts it.
 *
 * Names as Curator's: the first create asks for the base path (protected: `_c_<uuid>-` before its last
 * segment; sequential: the server appends 10 digits); every re-create asks for the name already made, in the
 * plain form of a sequential mode, so the node keeps its name. A node already at that name is adopted and
 * given our data. A protected sequential create whose reply was lost is found again by listing the parent
 * for our prefix, so it is never duplicated; an unprotected one cannot be told apart (Curator leaves the
 * orphan too).
 *
 * Differences from Curator, on purpose: `setData` is accepted before the initial create (the create carries
 * it) and its promise says when it is on the server; a reconnection with the session intact re-arms the watch
 * with one exists instead of a create + setData (Curator bumps the data version on every reconnection);
 * after a session expiry a persistent-mode node is checked, not rewritten.
 */

import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { compressData } from '../internal-common/compression.js';
import { Deadline, DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import {
  deleteGuaranteed,
  deleteOnGiveUp,
  findAndDeleteProtectedInBackground,
} from '../internal-common/guaranteed-delete.js';
import { IllegalRecipeStateError } from '../internal-common/recipe-errors.js';
import {
  adoptOwnNode,
  type RecipeHandoff,
  recipeHandoff,
  recipeHandoffArg,
} from '../internal-common/recipe-handoff.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { onClientState, type RecipeConnectionState } from '../internal-common/zk-client.js';
import { isNoNode, isRetryable, isSessionExpired } from '../internal-common/zk-errors.js';
import type { NodeClient } from './node-client.js';
import { createNode, findLostCreate, type LostCreate } from './node-create.js';
import {
  abortableSleep,
  isClientDone,
  isConnectedNow,
  retryDelayMs,
  SettleOnce,
} from './node-loop-helpers.js';
import {
  isEphemeralMode,
  type PersistentNodeEvents,
  type PersistentNodeMode,
  type PersistentNodeOptions,
  type PersistentNodeSettings,
  type PersistentNodeState,
  parentOf,
  persistentNodeSettings,
  validateNodeData,
} from './persistent-node-options.js';

export type { PersistentNodeEvents, PersistentNodeState } from './persistent-node-options.js';

/** A node kept present (recreated, its data kept) until `close()` deletes it. */
export class PersistentNode extends EventEmitter<PersistentNodeEvents> implements AsyncDisposable {
  /** The path given: the parent and name of the node (before protection and sequence digits). */
  readonly basePath: string;
  /** The create mode of the first create. */
  readonly mode: PersistentNodeMode;
  readonly #client: NodeClient;
  readonly #settings: PersistentNodeSettings;
  readonly #closing = new AbortController();
  readonly #initialCreate = new SettleOnce<boolean>();
  #state: PersistentNodeState = 'latent';
  #stopStates: (() => void) | undefined;
  /** The data to keep on the node, and a counter of `setData` calls so the newest always wins. */
  #data: Uint8Array;
  #dataGeneration = 0;
  #writtenGeneration = -1;
  #dataWaiters: { generation: number; resolve: (written: boolean) => void }[] = [];
  /** The node's full path once made (or adopted); every re-create asks for it. */
  #actualPath: string | undefined;
  /** Our exists watch was asked for and has not fired yet (close removes it if so). */
  #watchArmed = false;
  #needsCreate = true;
  #needsCheck = false;
  /** `deleted` was reported and `recreated` not yet. */
  #missing = false;
  #everPresent = false;
  /** A create whose answer never came: the session it was sent in and the data generation it carried. */
  #unknownCreate: LostCreate | undefined;
  /** The loop stopped on a failure retrying will not fix. */
  #stalled = false;
  #loop: Promise<void> | undefined;
  /** `close()` has done its delete: a create that lands later is deleted at once. */
  #closeDone = false;
  /** Calls our listeners (one that throws changes nothing here) and reports a stalled loop. */
  readonly #reporter: Reporter<PersistentNodeEvents>;

  /**
   * @param basePath the node's path; with protection or a sequential mode, the parent plus the name prefix.
   * @throws InvalidRecipeArgumentError for a bad path, mode, data, TTL or flag (nothing is sent).
   */
  constructor(client: NodeClient, basePath: string, options: PersistentNodeOptions) {
    super();
    this.#client = client;
    this.#settings = persistentNodeSettings(basePath, options);
    this.basePath = this.#settings.basePath;
    this.mode = this.#settings.mode;
    this.#data = this.#settings.data;
    this.#reporter = new Reporter(this, client, `PersistentNode ${this.basePath}`);
  }

  /** Where the object is in its life. */
  get state(): PersistentNodeState {
    return this.#state;
  }

  /** The node's full path (with any protection prefix and sequence digits) once made; undefined before and after close. */
  get actualPath(): string | undefined {
    return this.#state === 'started' ? this.#actualPath : undefined;
  }

  /** The data this object keeps on the node (a copy). */
  getData(): Uint8Array {
    return Uint8Array.from(this.#data);
  }

  /** Starts creating the node in the background; see {@link waitForInitialCreate}. */
  start(): void {
    if (this.#state !== 'latent') {
      throw new IllegalRecipeStateError(
        `PersistentNode at ${this.basePath} cannot start: it is ${this.#state}`,
      );
    }
    this.#state = 'started';
    this.#stopStates = onClientState(this.#client, this.#onConnectionState);
    this.#kick();
  }

  /**
   * Resolves true once the first create (or adoption of an existing node, with our data written) is done,
   * false when `timeoutMs` passes or the object is closed first; rejects with the signal's reason on abort.
   */
  async waitForInitialCreate(options?: WaitOptions): Promise<boolean> {
    const deadline = Deadline.of(options);
    if (this.#state === 'latent') {
      throw new IllegalRecipeStateError(`PersistentNode at ${this.basePath} is not started`);
    }
    try {
      return await deadline.guard(this.#initialCreate.promise);
    } catch (error) {
      if (error instanceof DeadlineExpired) return false;
      throw error;
    }
  }

  /**
   * Sets the data to keep on the node and writes it in the background (without a version, as Curator does):
   * at once when the node exists, or with the re-create when it is missing. Resolves true once the node holds
   * this data or newer, false if the object is closed first.
   * @throws InvalidRecipeArgumentError for data that is neither bytes nor a string; IllegalRecipeStateError
   *   when not started (both before anything is sent).
   */
  setData(data: Uint8Array | string): Promise<boolean> {
    const bytes = validateNodeData(data);
    if (this.#state !== 'started') {
      throw new IllegalRecipeStateError(`PersistentNode at ${this.basePath} is ${this.#state}`);
    }
    this.#data = bytes;
    const generation = ++this.#dataGeneration;
    const written = new Promise<boolean>((resolve) => this.#dataWaiters.push({ generation, resolve }));
    this.#stalled = false;
    this.#kick();
    return written;
  }

  /**
   * Stops keeping the node and deletes it (guaranteed: retried in the background after a connection loss),
   * unless `keepOnClose`. A create still in flight is waited for while connected, or its node deleted when it
   * lands. Leaves no watch, timer or listener behind. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasStarted = this.#state === 'started';
    this.#state = 'closed';
    this.#stopStates?.();
    this.#stopStates = undefined;
    this.#closing.abort();
    this.#initialCreate.settle(false);
    for (const waiter of this.#dataWaiters.splice(0)) waiter.resolve(false);
    if (!wasStarted) return;
    // An answer in flight decides what there is to delete; while connected it is moments away.
    if (this.#loop !== undefined && isConnectedNow(this.#client)) await this.#loop;
    this.#closeDone = true;
    const path = this.#actualPath;
    if (!this.#settings.keepOnClose) {
      if (path !== undefined) {
        if (isConnectedNow(this.#client)) await deleteGuaranteed(this.#client, path);
        else await deleteOnGiveUp(this.#client, path);
      } else if (this.#unknownCreate !== undefined && this.#settings.protectionPrefix !== undefined) {
        findAndDeleteProtectedInBackground(
          this.#client,
          parentOf(this.basePath),
          this.#settings.protectionPrefix,
        );
      }
    }
    // Our own delete fired the watch; otherwise (kept, or not deleted yet) remove it here.
    if (this.#watchArmed && path !== undefined) {
      this.#watchArmed = false;
      await this.#client
        .removeWatches?.(path, 'data', { watcher: this.#watcher, local: true })
        .catch(() => {}); // NoWatcher: it fired meanwhile
    }
  }

  /**
   * Hands the node on with the session (session hand-off): this object stops keeping it without deleting it
   * (state `closed`; waiters resolve false), and the returned plain object lets {@link PersistentNode.resume}
   * keep it from the client that resumes the session. Call it before the client's `detach()`.
   * IllegalRecipeStateError when not started or the node is not made yet.
   */
  handOff(): RecipeHandoff {
    const path = this.#actualPath;
    if (this.#state !== 'started' || path === undefined || this.#needsCreate) {
      throw new IllegalRecipeStateError(`PersistentNode at ${this.basePath} has no node to hand off`);
    }
    this.#state = 'closed';
    this.#stopStates?.();
    this.#stopStates = undefined;
    this.#closing.abort();
    this.#initialCreate.settle(false);
    for (const waiter of this.#dataWaiters.splice(0)) waiter.resolve(false);
    return recipeHandoff('PersistentNode', this.basePath, path);
  }

  /**
   * The node that `handoff` ({@link PersistentNode.handOff}) names, kept from now on by a new object on
   * `client`, which must have resumed the session (`connect({ session })`) for an ephemeral mode: the node is
   * adopted, not made again, after checking that it exists (and, ephemeral, is this session's). `options`
   * are the first object's (mode, data, ...); data that differs from the node's is written, as `setData`.
   * @throws InvalidRecipeArgumentError for a bad hand-off or options (before anything is sent);
   *   HandoffRefusedError when the node is gone or another session's.
   */
  static async resume(
    client: NodeClient,
    handoff: RecipeHandoff,
    options: PersistentNodeOptions,
  ): Promise<PersistentNode> {
    const checked = recipeHandoffArg(handoff, 'PersistentNode', parentOf);
    const node = new PersistentNode(client, checked.path, options);
    const data = await adoptOwnNode(client, checked.nodePath, isEphemeralMode(node.mode));
    node.#adopt(checked.nodePath, data);
    return node;
  }

  /** Starts keeping `path` (checked to exist and be ours), whose data now is `data`. */
  #adopt(path: string, data: Uint8Array): void {
    this.#state = 'started';
    this.#stopStates = onClientState(this.#client, this.#onConnectionState);
    this.#actualPath = path;
    this.#everPresent = true;
    this.#needsCreate = false;
    this.#needsCheck = true; // arm the exists watch on it
    if (Buffer.from(this.#wireData(path)).equals(data)) this.#dataWritten(this.#dataGeneration);
    this.#kick();
  }

  /** Same as {@link PersistentNode.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- reactions -------------------------------------------------------------------------------------

  readonly #watcher = (event: { type: string; path: string }): void => {
    if (event.path !== this.#actualPath) return; // the path never changes once made
    this.#watchArmed = false; // a one-shot watch: whatever fired, it is spent
    if (this.#state !== 'started') return;
    if (event.type === 'deleted') {
      this.#markMissing();
      this.#needsCreate = true;
    } else if (event.type === 'sessionExpired') {
      this.#onSessionLost();
      return;
    } else if (event.type === 'dataChanged' || event.type === 'created') {
      this.#needsCheck = true; // re-arm; someone else's data is left alone, as Curator does
    } else return;
    this.#kick();
  };

  readonly #onConnectionState = (state: RecipeConnectionState): void => {
    if (state === 'lost') this.#onSessionLost();
    else if (state === 'reconnected') {
      // The session's watches were restored, but a check is cheap and also restarts a stalled loop.
      this.#stalled = false;
      this.#needsCheck = true;
      this.#kick();
    }
  };

  /** The session expired: an ephemeral node went with it; any other node is checked on the new session. */
  #onSessionLost(): void {
    if (this.#state !== 'started') return;
    this.#watchArmed = false;
    if (isEphemeralMode(this.mode) && this.#actualPath !== undefined) {
      this.#markMissing();
      this.#needsCreate = true;
    } else this.#needsCheck = true;
    this.#stalled = false;
    this.#kick();
  }

  #markMissing(): void {
    if (this.#missing || this.#actualPath === undefined) return;
    this.#missing = true;
    this.#reporter.emit('deleted', this.#actualPath);
  }

  // ---- the loop --------------------------------------------------------------------------------------

  #hasWork(): boolean {
    const dataBehind = this.#actualPath !== undefined && this.#dataGeneration > this.#writtenGeneration;
    return this.#needsCreate || this.#needsCheck || dataBehind;
  }

  #kick(): void {
    if (this.#state !== 'started' || this.#stalled || this.#loop !== undefined) return;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
      if (this.#hasWork()) this.#kick(); // work asked for between the last check and here
    });
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (this.#state === 'started' && !this.#stalled && this.#hasWork()) {
      try {
        await this.#step();
        failures = 0;
      } catch (error) {
        if (this.#state !== 'started') return;
        if (isClientDone(this.#client)) {
          // Closed, or expired without autoRecreateSession: no session will ever hold the node again.
          this.#stall(error);
          this.#initialCreate.settle(false);
        } else if (isRetryable(error) || isSessionExpired(error)) {
          failures += 1;
          await this.#pauseBeforeRetry(failures);
        } else this.#stall(error);
      }
    }
  }

  #step(): Promise<void> {
    if (this.#needsCreate) return this.#create();
    if (this.#needsCheck) return this.#check();
    return this.#writeData();
  }

  async #create(): Promise<void> {
    const lost = this.#unknownCreate;
    if (this.#actualPath === undefined && lost !== undefined) {
      const found = await findLostCreate(this.#client, this.#settings, lost);
      if (found !== undefined) {
        this.#unknownCreate = undefined;
        this.#took(found, lost.generation);
        return;
      }
    }
    // Connected first, so that the session recorded is the one the create is sent in (not 0 after an expiry).
    await this.#client.connected({ signal: this.#closing.signal });
    const generation = this.#dataGeneration;
    this.#unknownCreate = { session: this.#client.sessionId, generation };
    try {
      const node = await createNode(
        this.#client,
        this.#settings,
        this.#actualPath,
        this.#wireData(this.#actualPath ?? this.#settings.basePath),
      );
      this.#unknownCreate = undefined;
      this.#took(node.path, node.adopted ? undefined : generation);
    } catch (error) {
      // Only a connection problem leaves the outcome unknown; any other answer means nothing was made.
      if (!isRetryable(error) && !isSessionExpired(error)) this.#unknownCreate = undefined;
      throw error;
    }
  }

  /** The node is ours at `path`: made with data `generation`, or adopted (undefined: our data must follow). */
  #took(path: string, generation: number | undefined): void {
    this.#actualPath = path;
    this.#needsCreate = false;
    if (this.#state !== 'started') {
      if (this.#closeDone && !this.#settings.keepOnClose) void deleteOnGiveUp(this.#client, path);
      return;
    }
    this.#needsCheck = true; // arm the exists watch on it
    if (generation === undefined) this.#writtenGeneration = -1;
    else this.#dataWritten(generation);
    const back = this.#missing;
    this.#missing = false;
    if (!this.#everPresent) {
      this.#everPresent = true;
      this.#reporter.emit('created', path);
    } else if (back) this.#reporter.emit('recreated', path);
  }

  async #check(): Promise<void> {
    const path = this.#actualPath;
    this.#needsCheck = false; // cleared first: an event during the read asks again
    if (path === undefined) return;
    // Marked before the call: its event may run before the code after the await does.
    this.#watchArmed = true;
    try {
      const stat = await this.#client.exists(path, { watch: this.#watcher });
      if (stat === null && this.#state === 'started') {
        this.#markMissing();
        this.#needsCreate = true;
      }
    } catch (error) {
      this.#needsCheck = true;
      throw error;
    }
  }

  /** Our data as it is sent for `path`: compressed with the `compression` option. */
  #wireData(path: string): Uint8Array {
    return compressData(this.#settings.compression, path, this.#data);
  }

  async #writeData(): Promise<void> {
    const path = this.#actualPath as string;
    const generation = this.#dataGeneration;
    try {
      await this.#client.setData(path, this.#wireData(path));
    } catch (error) {
      if (!isNoNode(error)) throw error;
      this.#markMissing();
      this.#needsCreate = true;
      return;
    }
    this.#dataWritten(generation);
  }

  /** Data `generation` (or newer) is on the node: the initial create is done, and so are those setData calls. */
  #dataWritten(generation: number): void {
    this.#writtenGeneration = Math.max(this.#writtenGeneration, generation);
    this.#initialCreate.settle(true);
    const done = this.#dataWaiters.filter((waiter) => waiter.generation <= this.#writtenGeneration);
    this.#dataWaiters = this.#dataWaiters.filter((waiter) => waiter.generation > this.#writtenGeneration);
    for (const waiter of done) waiter.resolve(true);
  }

  async #pauseBeforeRetry(failures: number): Promise<void> {
    await this.#client.connected({ signal: this.#closing.signal }).catch(() => {});
    if (failures > 1) await abortableSleep(retryDelayMs(failures), this.#closing.signal);
  }

  #stall(error: unknown): void {
    this.#stalled = true;
    // A client closed by the application is no news to it; anything else is said even with nobody listening.
    if (this.#client.state === 'closed') return;
    this.#reporter.background(error, 'the node cannot be kept (retried on reconnection or setData)');
  }
}
