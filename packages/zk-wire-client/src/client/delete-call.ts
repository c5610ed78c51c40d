/** The client's `delete`: one request, or with `guaranteed` retried through connection loss. */
import { versionArg } from '../util/args.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { CallOptions } from '../util/types.js';
import { DELETE } from './call-kinds.js';
import type { ZooKeeperClient } from './client.js';
import type { ClientCore } from './core.js';
import { deleteGuaranteed } from './guarded-writes.js';

/** Options of `delete`. */
export type DeleteOptions = CallOptions & { version?: number; guaranteed?: boolean };

/** Deletes `path` (see `ZooKeeperClient.delete`). */
export function deleteNode(
  client: ZooKeeperClient,
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
