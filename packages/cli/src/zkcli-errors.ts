/**
 * zkCli's wording of the ZooKeeper errors it names (its CliWrapperException: `Node does not exist: /x`,
 * `Node already exists: /x`, ...), for the commands that mirror zkCli's, so that scripts written for zkCli and
 * grepping its messages read ours the same way. Text output only: `--json` keeps `{ error, code }`.
 */
import { ZooKeeperError } from '@zkwire/zk-wire-client';

/** zkCli's message prefix for each code it words itself; the path follows (ZooKeeper 3.7+ wording). */
const PATH_MESSAGES: Readonly<Record<string, string>> = {
  NONODE: 'Node does not exist: ',
  NOCHILDRENFOREPHEMERALS: 'Ephemerals cannot have children: ',
  NODEEXISTS: 'Node already exists: ',
  NOTEMPTY: 'Node not empty: ',
  NOTREADONLY: 'Not a read-only call: ',
  INVALIDACL: 'Acl is not valid : ',
  NOAUTH: 'Insufficient permission : ',
  BADVERSION: 'version No is not valid : ',
  QUOTAEXCEEDED: 'Quota has exceeded : ',
};

/** zkCli's messages that name no path. */
const FIXED_MESSAGES: Readonly<Record<string, string>> = {
  RECONFIGINPROGRESS: 'Another reconfiguration is in progress -- concurrent reconfigs not supported (yet)',
  NEWCONFIGNOQUORUM:
    'No quorum of new config is connected and up-to-date with the leader of last committed config - try ' +
    'invoking reconfiguration after new servers are connected and synced',
};

/**
 * zkCli's message for `error`, or undefined when zkCli has no wording of its own for it (other codes, errors
 * without a path, anything that is not a ZooKeeper error): those keep ours, which start with the code name.
 */
export function zkCliMessage(error: unknown): string | undefined {
  if (!ZooKeeperError.isInstance(error)) return undefined;
  const fixed = FIXED_MESSAGES[error.code];
  if (fixed !== undefined) return fixed;
  const prefix = PATH_MESSAGES[error.code];
  if (prefix === undefined || error.path === undefined) return undefined;
  return prefix + error.path;
}
