/**
 * One way for a package to define its error family: a base class with a stable `code`, recognised by a
 * `Symbol.for` marker rather than by the class, so that `isInstance` holds across the ESM and CJS copies of a
 * package (and across two bundled copies of this helper); and one shape for the "bad argument" error, made
 * before anything is sent: `(argument, problem)`, read as `<argument>: <problem>`.
 */

/** The marker of one family (`'recipes'` → `Symbol.for('zkwire.recipes.error')`). */
export function errorFamilyMarker(family: string): symbol {
  return Symbol.for(`zkwire.${family}.error`);
}

/**
 * Marks an error as one of a family. The mark is a non-enumerable own property, so it stays out of the
 * error's type, its JSON and its spread.
 */
export function markError(error: Error, marker: symbol): void {
  Object.defineProperty(error, marker, { value: true });
}

/** True when `error` carries the family's marker, whichever copy of the package made it. */
export function hasErrorMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

/** Makes a family's bad-argument error: the argument's name, and what is wrong with it. */
export type InvalidArgument = (argument: string, problem: string) => Error;

/** The message of a bad-argument error: `timeoutMs: must be a finite number >= 0, got -1`. */
export function invalidArgumentMessage(argument: string, problem: string): string {
  return `${argument}: ${problem}`;
}
