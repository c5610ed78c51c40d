/**
 * The background loop of a PersistentNode (persistent-node.ts): it keeps the node present, with its data,
 * while the PersistentNode that owns it is started.
 *
 * One loop does the work, one call at a time, so its answers never cross: create the node, arm an exists
 * watch on it (the watch rides on the read itself, so no change slips in between), and write the newest data.
 * A deletion by someone else (the watch, or an exists/setData answering NoNode) and a session expiry
 * (ephemeral modes) send it back to "create". Failures with an unknown outcome (connection loss) wait for the
 * next connection and try again; other failures (no permission, parent missing with parent creation off) stop
 * the loop and are reported as an `error` event until a reconnection or a `setData` restarts it.
 *
 * Names as Curator's: the first create asks for the base path (protected: `_c_<uuid>-` before its last
 * segment; sequential: the server appends 10 digits); every re-create asks for the name already made, in the
 * plain form of a sequential mode, so the node keeps its name. A node already at that name is adopted and
 * given our data. A protected sequential create whose reply was lost is found again by listing the parent
 * for our prefix, so it is never duplicated; an unprotected one cannot be told apart (Curator leaves the
 * orphan too).
 */

import { Buffer } from 'node:buffer';
import { compressData } from '../internal-common/compression.js';
import {
  deleteGuaranteed,
  deleteOnGiveUp,
  findAndDeleteProtectedInBackground,
} from '../internal-common/guaranteed-delete.js';
import type { Reporter } from '../internal-common/safe-emit.js';
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
import type { KeptNodeData } from './persistent-node-data.js';
import {
  isEphemeralMode,
  type PersistentNodeEvents,
  type PersistentNodeSettings,
  parentOf,
} from './persistent-node-options.js';

/** Keeps one PersistentNode's node: started once (`start` or `adopt`), then stopped (`stop` or `close`). */
export class PersistentNodeKeeper {
  readonly #client: NodeClient;
  readonly #settings: PersistentNodeSettings;
  readonly #data: KeptNodeData;
  /** The owner's reporter: events go to the PersistentNode's listeners. */
  readonly #reporter: Reporter<PersistentNodeEvents>;
  readonly #closing = new AbortController();
  readonly #initialCreate = new SettleOnce<boolean>();
  /** Between `start`/`adopt` and `stop`: the owner is started. */
  #keeping = false;
  #stopStates: (() => void) | undefined;
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

  constructor(
    client: NodeClient,
    settings: PersistentNodeSettings,
    data: KeptNodeData,
    reporter: Reporter<PersistentNodeEvents>,
  ) {
    this.#client = client;
    this.#settings = settings;
    this.#data = data;
    this.#reporter = reporter;
  }

  /** The node's full path once made or adopted (still known after `stop`). */
  get path(): string | undefined {
    return this.#actualPath;
  }

  /** True when the node is made and not known to be missing: there is a node to hand off. */
  get hasNode(): boolean {
    return this.#actualPath !== undefined && !this.#needsCreate;
  }

  /**
   * Resolves true once the first create (or adoption, with our data written) is done, false when stopped
   * first or when no session will ever hold the node.
   */
  get initialCreate(): Promise<boolean> {
    return this.#initialCreate.promise;
  }

  /** Starts the loop: the node is made from nothing. */
  start(): void {
    this.#keeping = true;
    this.#stopStates = onClientState(this.#client, this.#onConnectionState);
    this.#kick();
  }

  /** Starts keeping `path` (checked to exist and be ours), whose data now is `data`. */
  adopt(path: string, data: Uint8Array): void {
    this.#keeping = true;
    this.#stopStates = onClientState(this.#client, this.#onConnectionState);
    this.#actualPath = path;
    this.#everPresent = true;
    this.#needsCreate = false;
    this.#needsCheck = true; // arm the exists watch on it
    if (Buffer.from(this.#wireData(path)).equals(data)) this.#dataWritten(this.#data.generation);
    this.#kick();
  }

  /** New data was set: write it, restarting a stalled loop. */
  dataChanged(): void {
    this.#stalled = false;
    this.#kick();
  }

  /** Stops keeping the node and leaves it as it is (a hand-off, or the first half of `close`). */
  stop(): void {
    this.#keeping = false;
    this.#stopStates?.();
    this.#stopStates = undefined;
    this.#closing.abort();
    this.#initialCreate.settle(false);
    this.#data.releaseWaiters();
  }

  /**
   * Stops, then deletes the node (guaranteed) unless `keepOnClose`. A create still in flight is waited for
   * while connected, or its node deleted when it lands. Leaves no watch, timer or listener behind.
   */
  async close(): Promise<void> {
    const wasKeeping = this.#keeping;
    this.stop();
    if (!wasKeeping) return;
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
          parentOf(this.#settings.basePath),
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

  // ---- reactions -------------------------------------------------------------------------------------

  readonly #watcher = (event: { type: string; path: string }): void => {
    if (event.path !== this.#actualPath) return; // the path never changes once made
    this.#watchArmed = false; // a one-shot watch: whatever fired, it is spent
    if (!this.#keeping) return;
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
    if (!this.#keeping) return;
    this.#watchArmed = false;
    if (isEphemeralMode(this.#settings.mode) && this.#actualPath !== undefined) {
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
    const dataBehind = this.#actualPath !== undefined && this.#data.behind;
    return this.#needsCreate || this.#needsCheck || dataBehind;
  }

  #kick(): void {
    if (!this.#keeping || this.#stalled || this.#loop !== undefined) return;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
      if (this.#hasWork()) this.#kick(); // work asked for between the last check and here
    });
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (this.#keeping && !this.#stalled && this.#hasWork()) {
      try {
        await this.#step();
        failures = 0;
      } catch (error) {
        if (!this.#keeping) return;
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
    const generation = this.#data.generation;
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
    if (!this.#keeping) {
      if (this.#closeDone && !this.#settings.keepOnClose) void deleteOnGiveUp(this.#client, path);
      return;
    }
    this.#needsCheck = true; // arm the exists watch on it
    if (generation === undefined) this.#data.forgetWritten();
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
      if (stat === null && this.#keeping) {
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
    return compressData(this.#settings.compression, path, this.#data.bytes);
  }

  async #writeData(): Promise<void> {
    const path = this.#actualPath as string;
    const generation = this.#data.generation;
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
    this.#data.written(generation);
    this.#initialCreate.settle(true);
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
