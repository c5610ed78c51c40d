/**
 * The `ensureChroot` option: the chroot of the connect string and each of its parents created, persistent
 * (Curator's namespace does the same through ensurePath), written ahead of the calls queued for the
 * connection so that none of them meets a missing chroot.
 */
import type { RequestPipeline } from '../pipeline/pipeline.js';
import { encodeCreate } from '../protocol/create.js';
import type { ReplyDecoder } from '../protocol/reply-decoder.js';
import type { Connection } from '../transport/connection.js';
import { acls } from '../util/acl.js';
import { ErrorCode } from '../util/errors.js';
import type { Chroot } from '../util/paths.js';
import type { ACL } from '../util/types.js';

/** A create of a chroot node: made, or there already. */
const chrootCreateReply: ReplyDecoder<void> = {
  operation: 'ensureChroot',
  resultCodes: [ErrorCode.NODEEXISTS],
  decode: () => undefined,
};

/** `/a/b` → `/a`, `/a/b`. */
function chrootNodes(prefix: string): string[] {
  const nodes: string[] = [];
  for (let at = prefix.indexOf('/', 1); at !== -1; at = prefix.indexOf('/', at + 1)) {
    nodes.push(prefix.slice(0, at));
  }
  nodes.push(prefix);
  return nodes;
}

/**
 * Writes the creates of the chroot's nodes on `connection`, ahead of the queued calls. Resolves once the
 * last is made (or was there); rejects with the server's error otherwise (NOAUTH, ...), which then shows
 * again as the chroot's NoNodeError on the calls that follow.
 */
export function ensureChroot(
  connection: Connection,
  chroot: Chroot,
  acl: ACL[] | undefined,
  pipeline: RequestPipeline,
): Promise<void> {
  let last: Promise<void> = Promise.resolve();
  for (const serverPath of chrootNodes(chroot.prefix)) {
    const xid = pipeline.nextXid();
    const args = { serverPath, data: null, acl: acl ?? acls.open(), mode: 'persistent' as const, ttl: 0n };
    last = pipeline.writeNow(connection, chrootCreateReply, xid, encodeCreate(xid, args, false));
    // Only the last answer is waited for; the others' failures show in it.
    if (serverPath !== chroot.prefix) last.catch(() => {});
  }
  return last;
}
