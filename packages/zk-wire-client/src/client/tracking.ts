/** The `ensembleTracking` option: checked, and the tracker that follows the ensemble's configuration. */
import type { GetDataResult } from '../protocol/get-data.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';
import type { ClientSession } from './call-session.js';
import type { WatchOptions } from './client-types.js';
import { EnsembleTracker } from './ensemble-tracker.js';

/**
 * The tracker of a client with `ensembleTracking: true` (undefined without); `replaceHosts` moves the client
 * to the servers of a new configuration. InvalidArgumentError for a value that is not a boolean.
 */
export function ensembleTrackerFor(
  ensembleTracking: unknown,
  client: { getConfig(options: WatchOptions): Promise<GetDataResult> },
  session: ClientSession,
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
