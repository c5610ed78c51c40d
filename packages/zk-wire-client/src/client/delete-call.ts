/** The client's `delete`: one request, or with `guaranteed` retried through connection loss. */
import { deleteReply, encodeDelete } from '../protocol/delete.js';
import { versionArg } from '../util/args.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { CallOptions } from '../util/types.js';
import { type ClientCore, callKind } from './core.js';
import { deleteGuaranteed, type GuardedWriteClient } from './guarded-writes.js';

/** Options of `delete`. */
export type DeleteOptions = CallOptions & { version?: number; guaranteed?: boolean };

/** A delete of one request (without `guaranteed`). */
const DELETE = callKind<void, undefined, DeleteOptions>({
  decoder: deleteReply,
  encode: (xid, serverPath, _arms, _arg, options, path) => {
    const version = versionArg(options?.version, 'delete', path);
    // As the Java client: "/" goes out as "/" even under a chroot, so the server refuses it (BADARGUMENTS)
    // instead of deleting the chroot node.
    return encodeDelete(xid, path === '/' ? '/' : serverPath, version);
  },
});

/** Deletes `path` (see `ZooKeeperClient.delete`). */
export function deleteNode(
  client: GuardedWriteClient,
  core: ClientCore,
  path: string,
  options?: DeleteOptions,
): Promise<void> {
  const guaranteed = options?.guaranteed;
  if (guaranteed === undefined || guaranteed === false) return core.call(DELETE, path, undefined, options);
  try {
    if (guaranteed !== true) {
      throw new InvalidArgumentError('guaranteed', 'must be a boolean', { operation: 'delete', path });
    }
    core.serverPath(path, 'delete');
    const version = versionArg(options?.version, 'delete', path);
    return deleteGuaranteed(client, path, version, options);
  } catch (error) {
    return Promise.reject(error);
  }
}
