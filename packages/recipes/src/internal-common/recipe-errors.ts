/**
 * Errors raised by the recipes themselves (the client's own errors, such as a connection loss during a call,
 * pass through unchanged). Every one is a {@link RecipeError} with a stable `code`, one per condition, and a
 * subclass per condition a caller may want to branch on. `RecipeError.isInstance` tests a `Symbol.for`
 * marker, not the class, so it works across the ESM and CJS copies of this package.
 */
import { errorFamilyMarker, hasErrorMarker, invalidArgumentMessage, markError } from '@zkwire/common';

const MARKER = errorFamilyMarker('recipes');

/** Stable codes of the recipe errors, one per condition. */
export const RecipeErrorCode = {
  /** A bad argument (path, timeout, signal, count, option), refused before anything was sent. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** `release()` by an object that does not hold the lock. */
  NOT_OWNER: 'NOT_OWNER',
  /** The write lock asked for while holding only the read lock (it would deadlock). */
  UPGRADE_REFUSED: 'UPGRADE_REFUSED',
  /** Our contender node kept disappearing while we waited. */
  NODE_LOST: 'NODE_LOST',
  /** One or more releases of a multi-lock failed. */
  RELEASE_FAILED: 'RELEASE_FAILED',
  /** A held lock, lease or leadership may be gone (the reason of its `lostSignal`). */
  HOLD_LOST: 'HOLD_LOST',
  /** The object is in the wrong state for the call (not started, started twice, closed, entered twice). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** A znode held bytes the recipe cannot decode (a counter shorter than its width). */
  BAD_DATA: 'BAD_DATA',
  /** The connection dropped during a wait that Curator ends with ConnectionLossException (double barrier). */
  CONNECTION_LOST: 'CONNECTION_LOST',
  /** A cache's `events()` consumer fell further behind than its buffer holds (the cache itself is current). */
  EVENTS_OVERFLOW: 'EVENTS_OVERFLOW',
  /** A SetPartitioner reached its failure state (session lost, finished, or an error). */
  PARTITION_FAILED: 'PARTITION_FAILED',
} as const;

/** One of {@link RecipeErrorCode}. */
export type RecipeErrorCode = (typeof RecipeErrorCode)[keyof typeof RecipeErrorCode];

/** Base class of every error the recipes raise on their own account. */
export class RecipeError extends Error {
  /** Which condition this is; stable across versions, unlike the message. */
  readonly code: RecipeErrorCode;

  constructor(code: RecipeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Set explicitly by each subclass too: a consumer's minifier may rename classes, and `name` is API.
    this.name = 'RecipeError';
    markError(this, MARKER);
  }

  /** True for any recipe error, whichever copy of the package made it. */
  static isInstance(error: unknown): error is RecipeError {
    return hasErrorMarker(error, MARKER);
  }
}

/**
 * A bad argument, refused before anything was sent: `(argument, problem)`, read `<argument>: <problem>`
 * (`options: must be an object`).
 */
export class InvalidRecipeArgumentError extends RecipeError {
  /** The name of the refused argument (`path`, `options.maxDepth`, `ops[2]`). */
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(RecipeErrorCode.INVALID_ARGUMENT, invalidArgumentMessage(argument, problem));
    this.name = 'InvalidRecipeArgumentError';
    this.argument = argument;
  }
}

/** The recipes' bad-argument error, in the shape @zkwire/common's checks take. */
export const invalidRecipeArgument = (argument: string, problem: string): InvalidRecipeArgumentError =>
  new InvalidRecipeArgumentError(argument, problem);

/** `release()` on an object that does not hold the lock (Curator's IllegalMonitorStateException). */
export class NotLockOwnerError extends RecipeError {
  constructor(path: string) {
    super(RecipeErrorCode.NOT_OWNER, `This lock object does not hold the lock at ${path}`);
    this.name = 'NotLockOwnerError';
  }
}

/** Asking for the write lock while holding only the read lock: Curator would wait forever. */
export class LockUpgradeError extends RecipeError {
  constructor(path: string) {
    super(
      RecipeErrorCode.UPGRADE_REFUSED,
      `Cannot upgrade a read lock to a write lock at ${path}: release the read lock first (it would deadlock)`,
    );
    this.name = 'LockUpgradeError';
  }
}

/** Our contender node kept disappearing while we waited (the session was probably lost). */
export class NodeLostError extends RecipeError {
  constructor(path: string) {
    super(RecipeErrorCode.NODE_LOST, `Our sequential node under ${path} disappeared; possible session loss`);
    this.name = 'NodeLostError';
  }
}

/** One or more releases of a multi-lock failed; `errors` holds each. */
export class ReleaseFailedError extends RecipeError {
  /** Every failure, in release order; the first is also the `cause`. */
  readonly errors: unknown[];

  constructor(errors: unknown[]) {
    super(RecipeErrorCode.RELEASE_FAILED, `${errors.length} release(s) failed`, { cause: errors[0] });
    this.name = 'ReleaseFailedError';
    this.errors = errors;
  }
}

/**
 * A call made in the wrong state: a barrier, election or counter used before `start()`, after `close()`, or
 * started or entered twice; also the abort reason of a leadership ended by `close()` or an interruption.
 */
export class IllegalRecipeStateError extends RecipeError {
  constructor(message: string) {
    super(RecipeErrorCode.ILLEGAL_STATE, message);
    this.name = 'IllegalRecipeStateError';
  }
}

/** A znode's bytes cannot be decoded (Curator's BufferUnderflowException on a short counter). */
export class BadRecipeDataError extends RecipeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(RecipeErrorCode.BAD_DATA, message, options);
    this.name = 'BadRecipeDataError';
  }
}

/**
 * The connection dropped during a wait that Curator ends rather than rides out (a double-barrier `enter` or
 * `leave`); the recipe removed what it could, and the caller may try again.
 */
export class RecipeConnectionLostError extends RecipeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(RecipeErrorCode.CONNECTION_LOST, message, options);
    this.name = 'RecipeConnectionLostError';
  }
}

/**
 * A cache's `events()` iteration ended because its consumer fell `bufferSize` events behind. The cache is
 * still current: read what is needed from it and start a new iteration.
 */
export class CacheEventsOverflowError extends RecipeError {
  /** The buffer size that was exceeded. */
  readonly bufferSize: number;

  constructor(bufferSize: number) {
    super(
      RecipeErrorCode.EVENTS_OVERFLOW,
      `Cache events consumer fell more than ${bufferSize} events behind; re-read the cache and iterate again`,
    );
    this.name = 'CacheEventsOverflowError';
    this.bufferSize = bufferSize;
  }
}
