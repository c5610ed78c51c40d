/**
 * ACLs in zkCli's text form: `scheme:id:perms` entries separated by commas (`world:anyone:cdrwa`,
 * `digest:bob:<hash>:rw`, `ip:10.0.0.0/8:r`, `auth::cdrwa`). The id may hold colons, so an entry is split at
 * its first colon (scheme) and its last one (perms), as zkCli's AclParser does.
 */
import { type ACL, formatPerms, parsePerms } from '@zkwire/zk-wire-client';
import { UsageError } from './errors.js';

/** Parses `scheme:id:perms[,scheme:id:perms...]`; a UsageError names the entry that is wrong. */
export function parseAclText(text: string): ACL[] {
  return text.split(',').map((entry) => {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first <= 0 || last === first) {
      throw new UsageError(`bad ACL entry "${entry}": expected scheme:id:perms, e.g. world:anyone:cdrwa`);
    }
    const letters = entry.slice(last + 1);
    let perms: number;
    try {
      perms = parsePerms(letters);
    } catch {
      throw new UsageError(
        `bad permissions "${letters}" in ACL entry "${entry}": use the letters c, d, r, w, a`,
      );
    }
    return { perms, id: { scheme: entry.slice(0, first), id: entry.slice(first + 1, last) } };
  });
}

/** zkCli's getAcl lines for one entry: `'scheme,'id` then `: perms`. */
export function aclLines(acl: readonly ACL[]): string[] {
  return acl.flatMap((entry) => [`'${entry.id.scheme},'${entry.id.id}`, `: ${formatPerms(entry.perms)}`]);
}

/** An ACL as JSON-safe entries. */
export function aclToJson(acl: readonly ACL[]): { scheme: string; id: string; perms: string }[] {
  return acl.map((entry) => ({ scheme: entry.id.scheme, id: entry.id.id, perms: formatPerms(entry.perms) }));
}
