/**
 * Errors of the election, barrier and counter recipes that the shared recipe errors do not cover (yet):
 * a call made in the wrong state, and znode bytes that cannot be decoded. Stable `code`s, and an `isInstance`
 * that works across ESM/CJS copies through a `Symbol.for` marker.
 */

const MARKER = Symbol.for('zkwire.recipes.state-error');

/** Stable codes of {@link RecipeStateError}. */
export const RecipeStateErrorCode = {
  /** The object is in the wrong state for the call (not started, already started, closed). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** A znode held bytes the recipe cannot decode (a counter shorter than its width). */
  BAD_DATA: 'BAD_DATA',
  /** The connection was lost during a barrier wait (Curator throws ConnectionLossException there). */
  CONNECTION_LOST: 'CONNECTION_LOST',
} as const;

/** One of {@link RecipeStateErrorCode}. */
export type RecipeStateErrorCode = (typeof RecipeStateErrorCode)[keyof typeof RecipeStateErrorCode];

/** A recipe call that cannot proceed, with a stable `code`. */
export class RecipeStateError extends Error {
  readonly code: RecipeStateErrorCode;

  constructor(code: RecipeStateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RecipeStateError';
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any RecipeStateError, whichever copy of the package made it. */
  static isInstance(error: unknown): error is RecipeStateError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}
