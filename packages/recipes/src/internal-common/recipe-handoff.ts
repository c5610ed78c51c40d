/**
 * Recipe hand-off: what a recipe's `handOff()` returns and its static `resume(client, handoff)` takes, so that
 * a held lock, a kept node or a leadership goes on with its session into another client (the client's
 * `detach()` and `connect({ session })`). With the same session a fresh recipe would make a second node (and
 * a latch would queue behind its own old one forever): `resume` adopts the node instead, after checking that
 * it still exists and belongs to the resuming client's session. The node keeps its name, so Curator
 * contenders on the same path see nothing change.
 *
 * A hand-off is a plain object of strings and numbers: `postMessage` and `JSON.stringify` carry it as it is.
 * It names nodes only; the session's password travels in the client's own hand-off.
 */
import { InvalidRecipeArgumentError, RecipeError, RecipeErrorCode } from './recipe-errors.js';
import { validateRecipePath } from './validate.js';
import type { RecipeClient } from './zk-client.js';
import { isNoNode } from './zk-errors.js';

/** The recipes that can be handed on. */
export type HandoffRecipe = 'InterProcessMutex' | 'LeaderLatch' | 'PersistentNode';

/** A recipe's hold, handed on with its session (see the recipe's `handOff()` and `resume()`). */
export interface RecipeHandoff {
  /** Which recipe made it; `resume` of another recipe refuses it. */
  readonly recipe: HandoffRecipe;
  /** The recipe's path: the lock path, the latch path, or the node's base path. */
  readonly path: string;
  /** The node that is the hold: our lock or latch node, or the node kept. */
  readonly nodePath: string;
  /** InterProcessMutex: how many times the lock is held (reentrancy); 1 for the others. */
  readonly holdCount: number;
}

/** `resume` found the handed-off node gone, or owned by another session than the resuming client's. */
export class HandoffRefusedError extends RecipeError {
  /** The node that was to be adopted. */
  readonly nodePath: string;
  constructor(nodePath: string, why: string) {
    super(RecipeErrorCode.NODE_LOST, `Cannot resume ${nodePath}: ${why}`);
    this.name = 'HandoffRefusedError';
    this.nodePath = nodePath;
  }
}

/** The hand-off of a recipe's hold. */
export function recipeHandoff(
  recipe: HandoffRecipe,
  path: string,
  nodePath: string,
  holdCount = 1,
): RecipeHandoff {
  return Object.freeze({ recipe, path, nodePath, holdCount });
}

/**
 * Checks a hand-off given to `resume` (any object of the shape, e.g. one that came through JSON), before
 * anything is sent. `nodeParent` tells where its node must sit, from the recipe's path.
 * @throws InvalidRecipeArgumentError naming what is wrong.
 */
export function recipeHandoffArg(
  value: unknown,
  recipe: HandoffRecipe,
  nodeParent: (path: string) => string,
): RecipeHandoff {
  if (typeof value !== 'object' || value === null) {
    throw new InvalidRecipeArgumentError('handoff', `must be what ${recipe}.handOff() returned`);
  }
  const fields = value as Record<string, unknown>;
  if (fields.recipe !== recipe) {
    throw new InvalidRecipeArgumentError(
      'handoff.recipe',
      `is ${String(fields.recipe)}, not ${recipe}: resume it with its own recipe`,
    );
  }
  const path = validateRecipePath(fields.path, 'handoff.path');
  const nodePath = validateRecipePath(fields.nodePath, 'handoff.nodePath');
  const parent = nodeParent(path);
  if (
    !nodePath.startsWith(`${parent === '/' ? '' : parent}/`) ||
    nodePath.lastIndexOf('/') !== parent.length
  ) {
    throw new InvalidRecipeArgumentError('handoff.nodePath', `must be a child of ${parent}: ${nodePath}`);
  }
  const holdCount = fields.holdCount;
  if (typeof holdCount !== 'number' || !Number.isInteger(holdCount) || holdCount < 1) {
    throw new InvalidRecipeArgumentError(
      'handoff.holdCount',
      `must be an integer >= 1, got ${String(holdCount)}`,
    );
  }
  return recipeHandoff(recipe, path, nodePath, holdCount);
}

/**
 * Reads the handed-off node and checks it is still there and, when `ephemeral`, of `client`'s session (the
 * resumed one). Resolves with its data.
 * @throws HandoffRefusedError when it is gone or another session's; the client's errors otherwise.
 */
export async function adoptOwnNode(
  client: RecipeClient,
  nodePath: string,
  ephemeral: boolean,
): Promise<Uint8Array> {
  let found: { data: Uint8Array; stat: { ephemeralOwner: bigint } };
  try {
    found = await client.getData(nodePath);
  } catch (error) {
    if (isNoNode(error)) throw new HandoffRefusedError(nodePath, 'the node is gone (its session expired?)');
    throw error;
  }
  const owner = found.stat.ephemeralOwner;
  if (ephemeral && owner !== client.sessionId) {
    const hex = (id: bigint) => `0x${BigInt.asUintN(64, id).toString(16)}`;
    throw new HandoffRefusedError(
      nodePath,
      `it belongs to session ${hex(owner)}, not to this client's ${hex(client.sessionId)} (resume the session first)`,
    );
  }
  return found.data;
}
