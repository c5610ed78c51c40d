/**
 * PersistentNode (Curator's `nodes.PersistentNode`): a node of any create mode that this client keeps
 * present, with its data, until `close()`, which deletes it.
 *
 * This file is the recipe's public face: arguments, the object's life (latent, started, closed) and the
 * session hand-off. The background loop that creates, watches, re-creates and writes the node is its
 * `PersistentNodeKeeper` (persistent-node-keeper.ts); the data and the `setData` calls waiting for it
 * are its `KeptNodeData` (persistent-node-data.ts).
 *
 * Differences from Curator, on purpose: `setData` is accepted before the initial create (the create carries
 * it) and its promise says when it is on the server; a reconnection with the session intact re-arms the watch
 * with one exists instead of a create + setData (Curator bumps the data version on every reconnection);
 * after a session expiry a persistent-mode node is checked, not rewritten.
 */

import { EventEmitter } from 'node:events';
import { Deadline, DeadlineExpired, type WaitOptions } from '../internal-common/deadline.js';
import { IllegalRecipeStateError } from '../internal-common/recipe-errors.js';
import {
  adoptOwnNode,
  type RecipeHandoff,
  recipeHandoff,
  recipeHandoffArg,
} from '../internal-common/recipe-handoff.js';
import { Reporter } from '../internal-common/safe-emit.js';
import type { NodeClient } from './node-client.js';
import { KeptNodeData } from './persistent-node-data.js';
import { PersistentNodeKeeper } from './persistent-node-keeper.js';
import {
  isEphemeralMode,
  type PersistentNodeEvents,
  type PersistentNodeMode,
  type PersistentNodeOptions,
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
  readonly #data: KeptNodeData;
  readonly #keeper: PersistentNodeKeeper;
  #state: PersistentNodeState = 'latent';

  /**
   * @param basePath the node's path; with protection or a sequential mode, the parent plus the name prefix.
   * @throws InvalidRecipeArgumentError for a bad path, mode, data, TTL or flag (nothing is sent).
   */
  constructor(client: NodeClient, basePath: string, options: PersistentNodeOptions) {
    super();
    const settings = persistentNodeSettings(basePath, options);
    this.basePath = settings.basePath;
    this.mode = settings.mode;
    this.#data = new KeptNodeData(settings.data);
    // Calls our listeners (one that throws changes nothing here) and reports a stalled loop.
    const reporter = new Reporter<PersistentNodeEvents>(this, client, `PersistentNode ${this.basePath}`);
    this.#keeper = new PersistentNodeKeeper(client, settings, this.#data, reporter);
  }

  /** Where the object is in its life. */
  get state(): PersistentNodeState {
    return this.#state;
  }

  /** The node's full path (with any protection prefix and sequence digits) once made; undefined before and after close. */
  get actualPath(): string | undefined {
    return this.#state === 'started' ? this.#keeper.path : undefined;
  }

  /** The data this object keeps on the node (a copy). */
  getData(): Uint8Array {
    return Uint8Array.from(this.#data.bytes);
  }

  /** Starts creating the node in the background; see {@link waitForInitialCreate}. */
  start(): void {
    if (this.#state !== 'latent') {
      throw new IllegalRecipeStateError(
        `PersistentNode at ${this.basePath} cannot start: it is ${this.#state}`,
      );
    }
    this.#state = 'started';
    this.#keeper.start();
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
      return await deadline.guard(this.#keeper.initialCreate);
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
    const written = this.#data.set(bytes);
    this.#keeper.dataChanged();
    return written;
  }

  /**
   * Stops keeping the node and deletes it (guaranteed: retried in the background after a connection loss),
   * unless `keepOnClose`. A create still in flight is waited for while connected, or its node deleted when it
   * lands. Leaves no watch, timer or listener behind. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    await this.#keeper.close();
  }

  /**
   * Hands the node on with the session (session hand-off): this object stops keeping it without deleting it
   * (state `closed`; waiters resolve false), and the returned plain object lets {@link PersistentNode.resume}
   * keep it from the client that resumes the session. Call it before the client's `detach()`.
   * IllegalRecipeStateError when not started or the node is not made yet.
   */
  handOff(): RecipeHandoff {
    const path = this.#keeper.path;
    if (this.#state !== 'started' || path === undefined || !this.#keeper.hasNode) {
      throw new IllegalRecipeStateError(`PersistentNode at ${this.basePath} has no node to hand off`);
    }
    this.#state = 'closed';
    this.#keeper.stop();
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
    node.#state = 'started';
    node.#keeper.adopt(checked.nodePath, data);
    return node;
  }

  /** Same as {@link PersistentNode.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
