/**
 * What the client logs (the `logger` option, util/logger.ts), from the session's events: connection attempts
 * and losses with their reasons (debug and warn), connection states (info), expiry and close (warn, info),
 * and a watcher that threw with nobody listening for `watcherError` (error).
 */
import { describeError, log } from '../util/logger.js';
import type { Logger } from '../util/types.js';
import type { ClientSession } from './call-session.js';

/** Subscribes `logger` to the session's events for the session's whole life. */
export function logSessionEvents(session: ClientSession, logger: Logger): void {
  session.on('connection', (event) => {
    if (event.phase === 'connecting') {
      log(logger, 'debug', () => `zookeeper: connecting to ${event.host}:${event.port}`);
    } else {
      log(
        logger,
        'warn',
        () => `zookeeper: connection to ${event.host}:${event.port} ended (${describeError(event.reason)})`,
      );
    }
  });
  session.on('state', (state) => {
    const id = `0x${session.sessionId.toString(16)}`;
    if (state === 'lost') log(logger, 'warn', () => `zookeeper: session ${id} lost (expired)`);
    else if (state === 'suspended')
      log(logger, 'warn', () => `zookeeper: session ${id} suspended (no connection)`);
    else
      log(
        logger,
        'info',
        () => `zookeeper: ${state} (session ${id}, timeout ${session.negotiatedTimeoutMs} ms)`,
      );
  });
  session.on('sessionState', (state) => {
    if (state === 'closed') log(logger, 'info', () => 'zookeeper: client closed');
  });
}
