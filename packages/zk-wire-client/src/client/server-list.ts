/** Replacing the servers a client connects to: `updateServerList`, and the ensemble tracker's moves. */
import { planHostListUpdate } from '../session/host-list-update.js';
import { parseConnectString } from '../util/connect-string.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';
import type { ClientSession } from './call-session.js';

/** Replaces `session`'s hosts, moving to another server when rebalancing says so; returns whether it moves. */
export function replaceServerList(session: ClientSession, hosts: readonly HostAddress[]): boolean {
  const plan = planHostListUpdate(session.hostList, hosts, session.currentHost);
  session.replaceHosts(plan.hosts, plan.move);
  return plan.move;
}

/** `updateServerList(connectString)`: the chroot, if any, must be the client's (see ZooKeeperClient). */
export function updateServerList(session: ClientSession, connectString: string): boolean {
  const parsed = parseConnectString(connectString);
  if (parsed.chroot.prefix !== '' && parsed.chroot.prefix !== session.chroot.prefix) {
    throw new InvalidArgumentError('connectString', `chroot ${parsed.chroot.prefix} is not the client's`, {
      operation: 'updateServerList',
    });
  }
  if (session.isTerminal) return false;
  return replaceServerList(session, parsed.hosts);
}
