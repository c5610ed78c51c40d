/**
 * ACL entries for the identities that TLS and SASL give a connection (x509 certificate subjects, SASL users),
 * and the permission letters zkCli prints. The open/read-only/creator/digest/ip builders live in ../acl.ts.
 */
import { Perms } from '../util/acl.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { ACL } from '../util/types.js';

function checkPerms(perms: number): number {
  if (!Number.isInteger(perms) || perms < 0 || perms > Perms.ALL) {
    throw new InvalidArgumentError(
      'perms',
      `must be an integer from 0 to ${Perms.ALL} (Perms.READ | Perms.WRITE ...)`,
    );
  }
  return perms;
}

/**
 * An entry for the holder of a TLS client certificate: `subject` is the RFC 2253 form ZooKeeper uses
 * (`CN=alice,OU=clients,O=Test`: no spaces, most specific RDN first; `openssl x509 -noout -subject -nameopt
 * RFC2253` prints it). The server matches it exactly.
 */
export function x509Acl(subject: string, perms: number = Perms.ALL): ACL {
  if (typeof subject !== 'string' || subject === '')
    throw new InvalidArgumentError('subject', 'must be a non-empty string');
  return { perms: checkPerms(perms), id: { scheme: 'x509', id: subject } };
}

/**
 * An entry for a SASL user (the authorization id, `bob` for DIGEST-MD5 user bob). The server needs
 * `authProvider.sasl=org.apache.zookeeper.server.auth.SASLAuthenticationProvider` to accept it (else InvalidACL).
 */
export function saslAcl(user: string, perms: number = Perms.ALL): ACL {
  if (typeof user !== 'string' || user === '')
    throw new InvalidArgumentError('user', 'must be a non-empty string');
  return { perms: checkPerms(perms), id: { scheme: 'sasl', id: user } };
}

const LETTERS: readonly [number, string][] = [
  [Perms.CREATE, 'c'],
  [Perms.DELETE, 'd'],
  [Perms.READ, 'r'],
  [Perms.WRITE, 'w'],
  [Perms.ADMIN, 'a'],
];

/** Permission bits as zkCli's `getAcl` prints them: `cdrwa` for ALL, `r` for READ, `` for none. */
export function formatPerms(perms: number): string {
  return LETTERS.filter(([bit]) => (perms & bit) !== 0)
    .map(([, letter]) => letter)
    .join('');
}

/** The inverse of {@link formatPerms}: `'rw'` → READ | WRITE. Letters may come in any order. */
export function parsePerms(letters: string): number {
  let perms = 0;
  for (const letter of letters) {
    const bit = LETTERS.find(([, l]) => l === letter)?.[0];
    if (bit === undefined)
      throw new InvalidArgumentError('perms', `unknown permission letter "${letter}" (use c, d, r, w, a)`);
    perms |= bit;
  }
  return perms;
}
