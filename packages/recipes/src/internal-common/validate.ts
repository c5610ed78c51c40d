/** Argument checks done before anything is sent; each failure is an {@link InvalidRecipeArgumentError}. */
import { checkPositiveInteger, checkSignal, checkTimeout, checkZnodePath } from '@zkwire/common';
import { invalidRecipeArgument } from './recipe-errors.js';

/** A ZooKeeper path usable as a recipe root: a valid znode path (the client's rules), not `/`. */
export function validateRecipePath(path: unknown, what = 'path'): string {
  return checkZnodePath(path, what, invalidRecipeArgument);
}

/** A timeout: undefined (wait forever) or a finite number of milliseconds ≥ 0. */
export function validateTimeout(timeoutMs: unknown): number | undefined {
  return checkTimeout(timeoutMs, invalidRecipeArgument);
}

/** A positive integer count (leases, quantity). */
export function validatePositiveInteger(value: unknown, what: string): number {
  return checkPositiveInteger(value, what, invalidRecipeArgument);
}

/** An AbortSignal or undefined. */
export function validateSignal(signal: unknown): AbortSignal | undefined {
  return checkSignal(signal, invalidRecipeArgument);
}
