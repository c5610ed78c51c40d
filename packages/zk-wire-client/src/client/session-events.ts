/**
 * What the client tells of its session's events: state changes as its own `state` events, and watchers
 * that threw, as `watcherError` events, or else in the log or as a process warning.
 */
import type { EventEmitter } from 'node:events';
import { describeError, log } from '../util/logger.js';
import type { Logger } from '../util/types.js';
import type { ClientSession } from './call-session.js';
import type { ClientEventMap } from './client-types.js';

/** Forwards `session`'s state and watcherError events to `client` (its constructor calls it once). */
export function forwardSessionEvents(
  session: ClientSession,
  client: EventEmitter<ClientEventMap>,
  logger: Logger | undefined,
): void {
  session.on('state', (state) => {
    try {
      client.emit('state', state);
    } catch (error) {
      // A throwing listener is the application's bug: it surfaces as usual, but outside the session's
      // bookkeeping, which must not stop halfway.
      queueMicrotask(() => {
        throw error;
      });
    }
  });
  session.on('watcherError', (error, event) => {
    // Nobody listening: say so in the log, or else on stderr (a process warning), rather than lose it.
    if (client.listenerCount('watcherError') === 0 && logger?.error !== undefined) {
      log(
        logger,
        'error',
        () => `zookeeper: a watcher threw on ${event.type} ${event.path}: ${describeError(error)}`,
      );
    } else if (client.listenerCount('watcherError') === 0) {
      process.emitWarning(`A ZooKeeper watcher threw on ${event.type} ${event.path}: ${String(error)}`, {
        code: 'ZKWIRE_WATCHER_ERROR',
      });
    } else {
      client.emit('watcherError', error, event);
    }
  });
}
