/**
 * PersistentTtlNode (Curator's `nodes.PersistentTtlNode`): a node at `path` that lives while its owner
 * does and goes away some time after the owner stops, even if it crashed.
 *
 * Layout, as Curator 5.9 makes it: the node at `path` is a PERSISTENT_WITH_TTL node (TTL `ttlMs`) kept by a
 * PersistentNode with the given data (not deleted on close), and its child `path/touch` is a
 * PERSISTENT_WITH_TTL node holding the default data (the local address text), touched (`setData`, or created
 * when missing) every `ttlMs / touchScheduleFactor` ms, the first time one period after `start()`. Once the
 * touching stops, the server deletes `touch` after `ttlMs` unchanged, then the childless parent. Touches never
 * change the parent, so its watchers see no keep-alive events. The server needs
 * `zookeeper.extendedTypesEnabled=true`.
 *
 * Curator 5.4 to 5.8 made the parent a CONTAINER instead (`parentMode: 'container'`), which the server never
 * removes when the owner stopped before its first touch, since a container that never had a child stays
 * (fixed in Curator 5.9, apache/curator#1260). Both layouts read the same; only the parent's removal differs.
 */

import { EventEmitter } from 'node:events';
import { checkNodeName } from '@zkwire/common';
import {
  type CompressionProvider,
  compressData,
  type RecipeCompression,
  resolveCompression,
} from '../internal-common/compression.js';
import type { WaitOptions } from '../internal-common/deadline.js';
import { localAddressData } from '../internal-common/default-data.js';
import { InvalidRecipeArgumentError, invalidRecipeArgument } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { validateRecipePath } from '../internal-common/validate.js';
import { isClientClosed, isNodeExists, isNoNode, isRetryable } from '../internal-common/zk-errors.js';
import type { NodeClient } from './node-client.js';
import { PersistentNode, type PersistentNodeState } from './persistent-node.js';
import { childPath, validateNodeData, validateTtl } from './persistent-node-options.js';

/** Curator's `DEFAULT_CHILD_NODE_NAME`. */
export const TTL_TOUCH_NODE_NAME = 'touch';
/** Curator's `DEFAULT_TOUCH_SCHEDULE_FACTOR`: the child is touched every `ttlMs / 2` ms. */
export const TTL_TOUCH_SCHEDULE_FACTOR = 2;

/** Options of a PersistentTtlNode. */
export interface PersistentTtlNodeOptions {
  /** How long the child may go untouched before the server deletes it, in ms (integer ≥ 1). */
  ttlMs: number;
  /** The data of the node at `path`; a string is written as UTF-8. */
  data: Uint8Array | string;
  /** Create missing parents as containers. Default true. */
  useParentCreation?: boolean;
  /** The child's name. Default `touch`. */
  childNodeName?: string;
  /** Touch every `ttlMs / touchScheduleFactor` ms (integer division, as Curator). Default 2. */
  touchScheduleFactor?: number;
  /**
   * The parent's mode: `'ttl'` (default, Curator 5.9: PERSISTENT_WITH_TTL with `ttlMs`) or `'container'`
   * (Curator 5.4 to 5.8).
   */
  parentMode?: PersistentTtlParentMode;
  /** Compress the parent's and the touch child's data, as a Curator client with `enableCompression()` does. */
  compression?: RecipeCompression;
}

/** The parent modes of a PersistentTtlNode: Curator 5.9's TTL node, or 5.4–5.8's container. */
export type PersistentTtlParentMode = 'ttl' | 'container';

function validateParentMode(mode: unknown): PersistentTtlParentMode {
  if (mode !== 'ttl' && mode !== 'container') {
    throw new InvalidRecipeArgumentError('parentMode', `must be 'ttl' or 'container', got ${String(mode)}`);
  }
  return mode;
}

/** Events of {@link PersistentTtlNode}. */
export interface PersistentTtlNodeEvents {
  /**
   * Keeping the parent failed in a way retrying will not fix (see PersistentNode's `error`), or a touch failed
   * other than by a connection problem or a missing parent (which the next touch repairs).
   */
  error: [error: unknown];
}

function touchPeriodOf(ttlMs: number, factor: unknown): number {
  if (typeof factor !== 'number' || !Number.isInteger(factor) || factor < 1) {
    throw new InvalidRecipeArgumentError(
      'touchScheduleFactor',
      `must be an integer >= 1, got ${String(factor)}`,
    );
  }
  const period = Math.floor(ttlMs / factor);
  if (period < 1) {
    throw new InvalidRecipeArgumentError(
      'touchScheduleFactor',
      `must leave a touch period (ttlMs / touchScheduleFactor) of at least 1 ms, got ${ttlMs} / ${factor}`,
    );
  }
  return period;
}

function validateChildName(name: unknown): string {
  return checkNodeName(name, 'childNodeName', invalidRecipeArgument);
}

/** A node kept alive by a TTL child that this object touches; it outlives `close()` by about `ttlMs`. */
export class PersistentTtlNode extends EventEmitter<PersistentTtlNodeEvents> implements AsyncDisposable {
  /** The parent node's path. */
  readonly path: string;
  /** The TTL of the touched child. */
  readonly ttlMs: number;
  /** The touched child's path (`path/touch` by default). */
  readonly childPath: string;
  /** Milliseconds between two touches. */
  readonly touchPeriodMs: number;
  readonly #client: NodeClient;
  readonly #node: PersistentNode;
  #timer: ReturnType<typeof setInterval> | undefined;
  #touching = false;
  readonly #compression: CompressionProvider | undefined;
  /** Reports failures of the parent's keeping and of the touches. */
  readonly #reporter: Reporter<PersistentTtlNodeEvents>;

  /** @throws InvalidRecipeArgumentError for a bad path, TTL, data, name or factor (nothing is sent). */
  constructor(client: NodeClient, path: string, options: PersistentTtlNodeOptions) {
    super();
    this.#client = client;
    this.path = validateRecipePath(path);
    if (typeof options !== 'object' || options === null) {
      throw new InvalidRecipeArgumentError('options', 'must be an object with at least ttlMs and data');
    }
    this.ttlMs = validateTtl(options.ttlMs);
    this.touchPeriodMs = touchPeriodOf(this.ttlMs, options.touchScheduleFactor ?? TTL_TOUCH_SCHEDULE_FACTOR);
    this.childPath = childPath(this.path, validateChildName(options.childNodeName ?? TTL_TOUCH_NODE_NAME));
    const parentMode = validateParentMode(options.parentMode ?? 'ttl');
    this.#node = new PersistentNode(client, this.path, {
      ...(parentMode === 'ttl' ? { mode: 'persistent-ttl', ttlMs: this.ttlMs } : { mode: 'container' }),
      data: validateNodeData(options.data),
      ...(options.useParentCreation === undefined ? {} : { useParentCreation: options.useParentCreation }),
      keepOnClose: true,
      ...(options.compression === undefined ? {} : { compression: options.compression }),
    });
    this.#compression = resolveCompression(options.compression);
    this.#reporter = new Reporter(this, client, `PersistentTtlNode ${this.path}`);
    this.#node.on('error', (error) => this.#reporter.background(error, 'the node cannot be kept'));
  }

  /** Where the object is in its life. */
  get state(): PersistentNodeState {
    return this.#node.state;
  }

  /** Creates the parent in the background and starts touching the child. */
  start(): void {
    this.#node.start();
    this.#timer = setInterval(() => this.#touch(), this.touchPeriodMs);
  }

  /** As PersistentNode's: true once the parent node was first created (or adopted). */
  waitForInitialCreate(options?: WaitOptions): Promise<boolean> {
    return this.#node.waitForInitialCreate(options);
  }

  /** Sets the parent node's data; see PersistentNode's `setData`. */
  setData(data: Uint8Array | string): Promise<boolean> {
    return this.#node.setData(data);
  }

  /** The data kept on the parent node (a copy). */
  getData(): Uint8Array {
    return this.#node.getData();
  }

  /**
   * Stops touching; deletes nothing (the server removes the child after `ttlMs`, then the empty parent).
   * Leaves no timer, watch or listener behind. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#node.close();
  }

  /** Same as {@link PersistentTtlNode.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** One touch; skipped while the previous one is still waiting (for a connection, say). */
  #touch(): void {
    if (this.#touching || this.#node.state !== 'started') return;
    this.#touching = true;
    this.#touchOnce()
      .catch((error: unknown) => {
        const expected = isNoNode(error) || isRetryable(error) || isClientClosed(error);
        if (!expected && this.#node.state === 'started') this.#reporter.background(error, 'a touch failed');
      })
      .finally(() => {
        this.#touching = false;
      });
  }

  /** Curator's touch: setData(child); on NoNode, create it with the TTL (or set it, if made meanwhile). */
  async #touchOnce(): Promise<void> {
    const data = compressData(this.#compression, this.childPath, await localAddressData());
    try {
      await this.#client.setData(this.childPath, data);
      return;
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
    try {
      await this.#client.create(this.childPath, data, { mode: 'persistent-ttl', ttlMs: this.ttlMs });
    } catch (error) {
      if (!isNodeExists(error)) throw error; // NoNode (the parent is being re-created) waits for the next touch
      await this.#client.setData(this.childPath, data);
    }
  }
}
