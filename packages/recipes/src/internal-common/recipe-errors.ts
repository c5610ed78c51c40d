/**
 * Errors raised by the recipes themselves, each with a stable `code`. `isInstance` works across ESM/CJS
 * copies of the package through a `Symbol.for` marker.
 */

const MARKER = Symbol.for('zkwire.recipes.error');

/** Stable codes of the recipe errors. */
export const RecipeErrorCode = {
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  NOT_OWNER: 'NOT_OWNER',
  UPGRADE_REFUSED: 'UPGRADE_REFUSED',
  NODE_LOST: 'NODE_LOST',
  RELEASE_FAILED: 'RELEASE_FAILED',
} as const;

/** One of {@link RecipeErrorCode}. */
export type RecipeErrorCode = (typeof RecipeErrorCode)[keyof typeof RecipeErrorCode];

/** Base class of every error the recipes raise on their own account. */
export class RecipeError extends Error {
  readonly code: RecipeErrorCode;
  readonly [MARKER] = true;

  constructor(code: RecipeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** True for any recipe error, whichever copy of the package made it. */
  static isInstance(error: unknown): error is RecipeError {
    return typeof error === 'object' && error !== null && (error as { [MARKER]?: unknown })[MARKER] === true;
  }
}

/** A bad argument, refused before anything was sent. */
export class InvalidRecipeArgumentError extends RecipeError {
  constructor(message: string) {
    super(RecipeErrorCode.INVALID_ARGUMENT, message);
  }
}

/** `release()` on an object that does not hold the lock (Curator's IllegalMonitorStateException). */
export class NotLockOwnerError extends RecipeError {
  constructor(path: string) {
    super(RecipeErrorCode.NOT_OWNER, `This lock object does not hold the lock at ${path}`);
  }
}

/** Asking for the write lock while holding only the read lock: Curator would wait forever. */
export class LockUpgradeError extends RecipeError {
  constructor(path: string) {
    super(
      RecipeErrorCode.UPGRADE_REFUSED,
      `Cannot upgrade a read lock to a write lock at ${path}: release the read lock first (it would deadlock)`,
    );
  }
}

/** Our contender node kept disappearing while we waited (the session was probably lost). */
export class NodeLostError extends RecipeError {
  constructor(path: string) {
    super(RecipeErrorCode.NODE_LOST, `Our sequential node under ${path} disappeared; possible session loss`);
  }
}

/** One or more releases of a multi-lock failed; `errors` holds each. */
export class ReleaseFailedError extends RecipeError {
  readonly errors: unknown[];

  constructor(errors: unknown[]) {
    super(RecipeErrorCode.RELEASE_FAILED, `${errors.length} release(s) failed`, { cause: errors[0] });
    this.errors = errors;
  }
}
