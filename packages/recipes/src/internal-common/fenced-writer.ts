/**
 * Fenced writes: a holder's writes sent as one `multi` with a `check` (version -1: the node exists) on the
 * holder's own node first, so ZooKeeper applies them only while the hold's node exists. A holder whose node
 * went (deleted, or its session expired) cannot write however late its packet arrives: the check fails, the
 * transaction changes nothing, and the caller gets a HoldLostError. Once the recipe knows the hold may be
 * gone (its lost signal, or a release) the writer refuses before sending; it never falls back to a plain write.
 */
import { checkZnodePath } from '@zkwire/common';
import { MultiError } from '@zkwire/zk-wire-client';
import { HoldLostError, LostReason } from './hold-monitor.js';
import {
  IllegalRecipeStateError,
  InvalidRecipeArgumentError,
  invalidRecipeArgument,
} from './recipe-errors.js';
import type { RecipeCallOptions, RecipeClient, RecipeOp, RecipeOpResult, RecipeStat } from './zk-client.js';
import { isNoNode, isSessionExpired } from './zk-errors.js';

/** Modes a fenced create takes (the TTL modes need `multi` with `op.create(..., { ttlMs })`). */
export type FencedCreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container';

/** Why the writer must not send now, or undefined while the hold stands. */
export type HoldCheck = () => Error | undefined;

/**
 * The check of a hold: gone once `signal` (the hold's lost signal, or a term's) aborted, or once `stillHeld`
 * says it was released.
 */
export function holdCheck(
  path: string,
  stillHeld: () => boolean,
  ...signals: (AbortSignal | undefined)[]
): HoldCheck {
  return () => {
    for (const signal of signals) {
      if (signal?.aborted) {
        // The hold's own reason (HoldLostError), or the reason a term ended (a close, an interruption).
        return signal.reason instanceof Error
          ? signal.reason
          : new HoldLostError({ reason: LostReason.SUSPENDED, path });
      }
    }
    return stillHeld() ? undefined : new IllegalRecipeStateError(`the hold on ${path} was released`);
  };
}

const OP_TYPES = new Set(['create', 'delete', 'setData', 'check']);

/** A write's path, by the client's rules (what the client would refuse is refused here, naming `path`). */
function checkPath(path: unknown, sequential = false): string {
  return checkZnodePath(path, 'path', invalidRecipeArgument, { allowRoot: true, sequential });
}

function checkVersion(version: unknown): number {
  if (version === undefined) return -1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < -1) {
    throw new InvalidRecipeArgumentError('version', `must be an integer >= -1, got ${String(version)}`);
  }
  return version;
}

/** The client's MultiError, known by its shape so that another copy of the client's classes fits too. */
function isMultiError(error: unknown): error is MultiError {
  const candidate = error as Partial<MultiError> | null;
  return typeof candidate?.failedIndex === 'number' && Array.isArray(candidate.results);
}

/** Writes that ZooKeeper applies only while one hold's node exists. */
export class FencedWriter {
  /** The node whose existence every write checks (the lock, lease or latch node). */
  readonly holderPath: string;
  readonly #client: RecipeClient;
  readonly #holdGone: HoldCheck;

  constructor(client: RecipeClient, holderPath: string, holdGone: HoldCheck) {
    if (typeof client.multi !== 'function') {
      throw new IllegalRecipeStateError('fenced writes need a client with multi()');
    }
    this.#client = client;
    this.holderPath = holderPath;
    this.#holdGone = holdGone;
  }

  /** Creates a node while the hold stands; resolves with its path. */
  async create(
    path: string,
    data?: Uint8Array | string | null,
    options: RecipeCallOptions & { mode?: FencedCreateMode } = {},
  ): Promise<string> {
    const mode = options.mode ?? 'persistent';
    const op: RecipeOp = {
      type: 'create',
      path: checkPath(path, mode.endsWith('-sequential')),
      data,
      mode,
      acl: undefined,
    };
    const [result] = await this.#send([op], options, true);
    return (result as { path: string }).path;
  }

  /** Sets a node's data while the hold stands (version -1, the default: any); resolves with its Stat. */
  async setData(
    path: string,
    data: Uint8Array | string | null,
    options: RecipeCallOptions & { version?: number } = {},
  ): Promise<RecipeStat> {
    const op: RecipeOp = {
      type: 'setData',
      path: checkPath(path),
      data,
      version: checkVersion(options.version),
    };
    const [result] = await this.#send([op], options, true);
    return (result as { stat: RecipeStat }).stat;
  }

  /** Deletes a node while the hold stands (version -1, the default: any). */
  async delete(path: string, options: RecipeCallOptions & { version?: number } = {}): Promise<void> {
    await this.#send(
      [{ type: 'delete', path: checkPath(path), version: checkVersion(options.version) }],
      options,
      true,
    );
  }

  /**
   * Runs `ops` (built with the client's `op.*`) as one transaction behind the hold's check; resolves with
   * their results. A failure of one of them rejects with a MultiError over `ops` alone (indices as given).
   */
  multi(ops: RecipeOp[], options: RecipeCallOptions = {}): Promise<RecipeOpResult[]> {
    if (!Array.isArray(ops) || ops.length === 0) {
      return Promise.reject(new InvalidRecipeArgumentError('ops', 'must be a non-empty array'));
    }
    for (const [index, op] of ops.entries()) {
      if (typeof op !== 'object' || op === null || !OP_TYPES.has(op.type)) {
        return Promise.reject(
          new InvalidRecipeArgumentError(`ops[${index}]`, 'must come from op.create/delete/setData/check'),
        );
      }
    }
    return this.#send(ops, options, false);
  }

  async #send(ops: RecipeOp[], options: RecipeCallOptions, single: boolean): Promise<RecipeOpResult[]> {
    const gone = this.#holdGone();
    if (gone !== undefined) throw gone;
    const fence: RecipeOp = { type: 'check', path: this.holderPath, version: -1 };
    try {
      const results = await (this.#client.multi as NonNullable<RecipeClient['multi']>)(
        [fence, ...ops],
        options,
      );
      return results.slice(1);
    } catch (error) {
      throw this.#translate(error, single);
    }
  }

  /** The hold's check failing, or the session gone, is a HoldLostError; an op's own failure is the op's. */
  #translate(error: unknown, single: boolean): unknown {
    if (isSessionExpired(error)) return this.#lost(LostReason.LOST, error);
    if (!isMultiError(error)) return error;
    if (error.failedIndex === 0) {
      return isNoNode(error.failed) ? this.#lost(LostReason.DELETED, error) : error.failed;
    }
    if (single) return error.failed;
    return new MultiError(error.results.slice(1), error.failedIndex - 1, { path: error.failed.path });
  }

  #lost(reason: LostReason, cause: unknown): HoldLostError {
    const lost = new HoldLostError({ reason, path: this.holderPath });
    Object.defineProperty(lost, 'cause', { value: cause, configurable: true, writable: true });
    return lost;
  }
}
