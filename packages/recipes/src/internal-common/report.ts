/**
 * The older entry point of background error reports, kept for code not yet moved to {@link Reporter}
 * (safe-emit.ts), which it now goes through: `'error'` listeners, else the logger, else a process warning.
 */
import type { EventEmitter } from 'node:events';
import { Reporter, type WarnLogger } from './safe-emit.js';

/** The logger shape the client's `logger` option takes (console, pino, winston fit). */
export type RecipeLogger = WarnLogger;

/** Reports a background failure of `recipe`; `what` names the recipe and the failure. */
export function emitOrLog(
  recipe: EventEmitter,
  client: { readonly logger?: RecipeLogger | undefined },
  error: unknown,
  what: string,
): void {
  new Reporter<Record<string, unknown[]>>(recipe, client, what).background(error, 'failed');
}
