/**
 * The client's creates: with `createParents` (the parents made, and the create sent again, after a NoNode)
 * and `protected` (guarded-writes.ts), and the check of the `protected` option.
 */
import { type CreateResult, encodeCreate } from '../protocol/create.js';
import type { ReplyDecoder } from '../protocol/reply-decoder.js';
import { aclArg } from '../util/args.js';
import { InvalidArgumentError, isNoNode } from '../util/errors.js';
import { parent } from '../util/paths.js';
import type { ACL, CallOptions, CreateOptions, Data, Stat } from '../util/types.js';
import type { ClientCore } from './core.js';
import { createProtected, DEFAULT_PROTECTED_ATTEMPTS, type GuardedWriteClient } from './guarded-writes.js';

/** How many times a create with `createParents` makes the parents again after a NoNode (see createNode). */
const PARENT_ROUNDS = 3;

/** What the creates call on the client itself: the guarded writes' calls, and ensurePath (createParents). */
export interface CreatingClient extends GuardedWriteClient {
  ensurePath(
    path: string,
    mode: 'persistent' | 'container',
    options?: CallOptions & { acl?: ACL[] },
  ): Promise<void>;
}

/** `protected` creates (guarded-writes.ts). */
export function createProtectedNode(
  client: CreatingClient,
  path: string,
  data: Data,
  options: CreateOptions,
): Promise<{ path: string; stat: Stat }> {
  try {
    const attempts = protectedAttemptsArg(options.protected, path);
    // Arguments are checked by the first create, before anything is sent.
    return createProtected(client, path, data, { ...options, protected: undefined }, attempts);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The result is shaped by the decoder while the reply settles, so that create settles in server order
 * like every other call. With `createParents`, a NoNode answer turns (in that same step) into making the
 * parents and creating again: that compound path is outside the order guarantee. Parents can vanish
 * between being made and the create (the server reaps an empty container; others delete), so that is done
 * up to `PARENT_ROUNDS` times before the NoNode stands. (Curator gives up after one round.)
 */
export function createNode<R extends string | CreateResult>(
  client: CreatingClient,
  core: ClientCore,
  decoder: ReplyDecoder<R>,
  path: string,
  data: Data,
  options: CreateOptions | undefined,
  withStat: boolean,
): Promise<R> {
  try {
    const operation = withStat ? 'create2' : 'create';
    const args = core.createArgs(path, data, options, operation);
    // Checked now, so that a bad parentAcl is refused before anything is sent.
    const parentAcl =
      options?.parentAcl === undefined ? undefined : aclArg(options.parentAcl, operation, path, 'parentAcl');
    const parents = options?.createParents;
    const attempt = (parentRoundsLeft: number): Promise<R> => {
      const xid = core.begin();
      const frame = encodeCreate(xid, args, withStat);
      return core.submit(decoder, xid, frame, path, undefined, options, (request) => {
        if (parentRoundsLeft === 0) return;
        request.recover = (error) => {
          if (!isNoNode(error)) return undefined;
          // Parents get `parentAcl` (default open), never the node's own `acl`.
          const mode = parents === 'container' ? 'container' : 'persistent';
          const parentOptions = { signal: options?.signal, timeoutMs: options?.timeoutMs, acl: parentAcl };
          const created = client
            .ensurePath(parent(path), mode, parentOptions)
            .then(() => attempt(parentRoundsLeft - 1));
          return { value: created };
        };
      });
    };
    return attempt(parents !== undefined && parents !== false ? PARENT_ROUNDS : 0);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The `protected` option as a number of attempts. */
function protectedAttemptsArg(value: CreateOptions['protected'], path: string): number {
  if (value === true) return DEFAULT_PROTECTED_ATTEMPTS;
  const attempts =
    typeof value === 'object' && value !== null ? (value.maxAttempts ?? DEFAULT_PROTECTED_ATTEMPTS) : 0;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 100) {
    throw new InvalidArgumentError('protected', 'must be true or { maxAttempts: 1..100 }', {
      operation: 'create',
      path,
    });
  }
  return attempts;
}
