import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { ZooCfg } from './zoo-cfg.js';

/**
 * Dynamic reconfiguration (ZooKeeper 3.5+): what a reconfig-enabled member needs besides the usual zoo.cfg.
 *
 * - `reconfigEnabled=true` (off by default since 3.5.3), `standaloneEnabled=false` (so that the ensemble may
 *   shrink below two participants or grow from one), and the membership in a separate dynamic config file
 *   (`dynamicConfigFile=`), which the server rewrites after each reconfig (`zoo.cfg.dynamic.<version>`).
 * - The client port moves into the server lines (`server.N=host:quorum:election:role;clientHost:clientPort`);
 *   `clientPort`/`clientPortAddress` stay out of the static file, which would otherwise have to agree with them.
 * - reconfig writes `/zookeeper/config`, whose ACL only lets a super user do it (or `skipACL`, which turns every
 *   ACL off): members get a super-user digest, and tests authenticate with {@link SUPER_USER}.
 */

/** The super user every reconfig-enabled member accepts: `addAuth(scheme, credentials)` before `reconfig`. */
export const SUPER_USER = { scheme: 'digest', credentials: 'super:zkwire-reconfig' } as const;

/** The member's ports; the host is always 127.0.0.1. */
export interface MemberPorts {
  client: number;
  quorum: number;
  election: number;
}

/** The membership line of a server: `server.N=127.0.0.1:quorum:election:participant;127.0.0.1:client`. */
export function serverLine(
  myid: number,
  ports: MemberPorts,
  role: 'participant' | 'observer' = 'participant',
) {
  return `server.${myid}=127.0.0.1:${ports.quorum}:${ports.election}:${role};127.0.0.1:${ports.client}`;
}

/** The JVM flag that makes {@link SUPER_USER} a super user (`DigestAuthenticationProvider.superDigest`). */
export function superDigestFlag(): string {
  const [user] = SUPER_USER.credentials.split(':');
  const digest = createHash('sha1').update(SUPER_USER.credentials).digest('base64');
  return `-Dzookeeper.DigestAuthenticationProvider.superDigest=${user}:${digest}`;
}

/** The static zoo.cfg entries of a reconfig-enabled member: `base` without its client port, plus the flags. */
export function reconfigStaticConfig(base: ZooCfg, dynamicFile: string): ZooCfg {
  const { clientPort: _port, clientPortAddress: _address, ...rest } = base;
  return { ...rest, reconfigEnabled: true, standaloneEnabled: false, dynamicConfigFile: dynamicFile };
}

/** Writes a dynamic config file holding the given server lines. */
export function writeDynamicConfig(path: string, lines: readonly string[]): void {
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/**
 * The server lines of the membership a member reports in its `conf` answer (`membership:` then the
 * `server.N=` lines and `version=`). Empty when the answer has none (not serving yet).
 */
export function membershipOf(conf: string): string[] {
  return conf
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^server\.\d+=/.test(line));
}
