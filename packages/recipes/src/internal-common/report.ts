/**
 * Errors a recipe meets in the background (a refresh, a re-create, a listener that threw) have no caller to
 * reject. They go to the recipe's `'error'` listeners, or, when nobody listens, to the client's `logger`
 * (the client option), instead of vanishing.
 */
import type { EventEmitter } from 'node:events';

/** The logger shape the client's `logger` option takes (console, pino, winston fit). */
export interface RecipeLogger {
  warn?(message: string): void;
}

/** Emits `error` to the recipe's listeners, or logs it (warn) through the client's logger when none listen. */
export function emitOrLog(
  recipe: EventEmitter,
  client: { readonly logger?: RecipeLogger | undefined },
  error: unknown,
  what: string,
): void {
  if (recipe.listenerCount('error') > 0) {
    recipe.emit('error', error);
    return;
  }
  const warn = client.logger?.warn;
  if (warn === undefined) return;
  const detail = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  try {
    warn.call(
      client.logger,
      `zookeeper recipes: ${what}: ${typeof code === 'string' ? `${code}: ` : ''}${detail}`,
    );
  } catch {
    // The application's logger failed: nowhere left to report it.
  }
}

/**
 * Emits a node event (`created`, `deleted`, `recreated`); a throwing listener is reported as `error` (or
 * logged), never stops the recipe's loop.
 */
export function notifyNodeEvent(
  recipe: EventEmitter,
  client: { readonly logger?: RecipeLogger | undefined },
  event: 'created' | 'deleted' | 'recreated',
  path: string,
): void {
  try {
    recipe.emit(event, path);
  } catch (error) {
    emitOrLog(recipe, client, error, `PersistentNode ${event} listener threw`);
  }
}
