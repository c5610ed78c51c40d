/**
 * ACL helpers: permission bits, the well-known ACL lists, and digest ids (wire-protocol.md §4.3, §10.2).
 */
import { createHash } from 'node:crypto';
import type { ACL } from './types.js';

/** Permission bits of an ACL entry. */
export const Perms = { READ: 1, WRITE: 2, CREATE: 4, DELETE: 8, ADMIN: 16, ALL: 31 } as const;

/**
 * The digest ACL id of a user: `user:base64(sha1("user:password"))` (SHA-1 is the server default; a server
 * configured with another `digestAlg` needs ids made with that algorithm).
 */
export function digestId(user: string, password: string, algorithm = 'sha1'): string {
  const hash = createHash(algorithm).update(`${user}:${password}`, 'utf8').digest('base64');
  return `${user}:${hash}`;
}

/** Builders for common ACL lists and entries. */
export const acls = {
  /** Everybody may do everything (Java `OPEN_ACL_UNSAFE`). */
  open(): ACL[] {
    return [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];
  },
  /** Everybody may read (Java `READ_ACL_UNSAFE`). */
  readOnly(): ACL[] {
    return [{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }];
  },
  /** All rights to the identities authenticated on this connection (Java `CREATOR_ALL_ACL`). */
  creatorAll(): ACL[] {
    return [{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }];
  },
  /** An entry for a digest user, with its id computed from the password. */
  digest(user: string, password: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'digest', id: digestId(user, password) } };
  },
  /** An entry for an IP address or a CIDR block (`10.0.0.0/8`). */
  ip(address: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'ip', id: address } };
  },
} as const;
