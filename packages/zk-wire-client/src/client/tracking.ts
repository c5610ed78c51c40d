/** The `ensembleTracking` option: checked, and the tracker that follows the ensemble's configuration. */
import type { Session } from '../session/session.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';
import type { ZooKeeperClient } from './client.js';
import { EnsembleTracker } from './ensemble-tracker.js';

/**
 * The tracker of a client with `ensembleTracking: true` (undefined without); `replaceHosts` moves the client
 * to the servers of a new configuration. InvalidArgumentError for a value that is not a boolean.
 */
export function ensembleTrackerFor(
  ensembleTracking: unknown,
  client: Pick<ZooKeeperClient, 'getConfig'>,
  session: Session,
  replaceHosts: (hosts: readonly HostAddress[]) => boolean,
): EnsembleTracker | undefined {
  if (ensembleTracking === undefined || ensembleTracking === false) return undefined;
  if (ensembleTracking !== true) throw new InvalidArgumentError('ensembleTracking', 'must be a boolean');
  return new EnsembleTracker({
    readConfig: (watch) => client.getConfig({ watch }),
    onState: (listener) => {
      session.on('state', listener);
      return () => session.off('state', listener);
    },
    sessionId: () => session.sessionId,
    hosts: () => session.hostList,
    replaceHosts,
  });
}
