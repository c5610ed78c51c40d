/** The client's `addAuth`: its arguments checked before anything is sent, then a wait bounded by its options. */
import { boundedWait } from '../util/bounded-wait.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { CallOptions } from '../util/types.js';
import type { ClientSession } from './call-session.js';
import { optionsArg } from './core.js';

/** Adds credentials to `session` (see `ZooKeeperClient.addAuth`). */
export function addAuthCall(
  session: ClientSession,
  scheme: string,
  credentials: Uint8Array | string,
  options?: CallOptions,
): Promise<void> {
  if (typeof scheme !== 'string' || scheme === '') {
    return Promise.reject(
      new InvalidArgumentError('scheme', 'must be a non-empty string', { operation: 'addAuth' }),
    );
  }
  if (typeof credentials !== 'string' && !(credentials instanceof Uint8Array)) {
    return Promise.reject(
      new InvalidArgumentError('credentials', 'must be a string or bytes', { operation: 'addAuth' }),
    );
  }
  try {
    optionsArg(options, 'addAuth', undefined);
  } catch (error) {
    return Promise.reject(error);
  }
  if (options?.signal?.aborted) return Promise.reject(options.signal.reason);
  return boundedWait(session.addAuth(scheme, credentials), 'addAuth', options);
}
