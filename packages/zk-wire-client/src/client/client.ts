/**
 * The public API: {@link createClient}, {@link connect} and {@link ZooKeeperClient}. Each call checks its
 * arguments, maps the path into the chroot, builds its frame (ops/*) and hands it to the session's pipeline.
 * Calls never throw synchronously: every failure is a rejected promise with a typed error. The client is
 * layered: session and state (base.ts), reads (reads.ts), then writes and watches here.
 */
import type { AddWatchModeName } from '../protocol/add-watch.js';
import { type CreateResult, createPathReply, createReply, encodeCreate } from '../protocol/create.js';
import { deleteReply, encodeDelete } from '../protocol/delete.js';
import { multiReply } from '../protocol/multi.js';
import type { ReplyDecoder } from '../protocol/pending.js';
import { encodeSetACL, setACLReply } from '../protocol/set-acl.js';
import { encodeSetData, setDataReply } from '../protocol/set-data.js';
import type { ACL } from '../util/acl.js';
import { aclArg, dataBytes, versionArg } from '../util/args.js';
import { InvalidArgumentError, isNoNode } from '../util/errors.js';
import { parent } from '../util/paths.js';
import type {
  CallOptions,
  ClientOptions,
  CreateOptions,
  Data,
  Op,
  OpResult,
  Stat,
  WatchEvent,
  Watcher,
  WatchType,
} from '../util/types.js';
import { createProtected, DEFAULT_PROTECTED_ATTEMPTS, deleteGuaranteed } from './guarded-writes.js';
import { encodeMultiCall } from './multi-args.js';
import { ClientReads } from './reads.js';
import { deleteRecursive, ensurePath } from './tree-helpers.js';
import { addWatch, checkWatches, removeWatches, watchPersistent } from './watch-api.js';

export type { ClientEventMap, WatchOptions } from './base.js';

/** How many times a create with `createParents` makes the parents again after a NoNode (see createNode). */
const PARENT_ROUNDS = 3;

/** A ZooKeeper client: one session over a sequence of connections. */
export class ZooKeeperClient extends ClientReads {
  // ---- writes -----------------------------------------------------------------------------------------

  /** Creates a node and resolves with its actual path (with the sequence suffix for sequential modes). */
  create(path: string, data?: Data, options?: CreateOptions): Promise<string> {
    if (options?.protected) return this.createProtectedNode(path, data, options).then((r) => r.path);
    return this.createNode(createPathReply, path, data, options, false);
  }

  /** Creates a node and resolves with its actual path and its Stat. */
  create2(path: string, data?: Data, options?: CreateOptions): Promise<{ path: string; stat: Stat }> {
    if (options?.protected) return this.createProtectedNode(path, data, options);
    return this.createNode(createReply, path, data, options, true);
  }

  /** `protected` creates (guarded-writes.ts). */
  private createProtectedNode(path: string, data: Data, options: CreateOptions) {
    try {
      const attempts = protectedAttemptsArg(options.protected, path);
      // Arguments are checked by the first create, before anything is sent.
      return createProtected(this, path, data, { ...options, protected: undefined }, attempts);
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
  private createNode<R extends string | CreateResult>(
    decoder: ReplyDecoder<R>,
    path: string,
    data: Data,
    options: CreateOptions | undefined,
    withStat: boolean,
  ): Promise<R> {
    try {
      const operation = withStat ? 'create2' : 'create';
      const args = this.core.createArgs(path, data, options, operation);
      // Checked now, so that a bad parentAcl is refused before anything is sent.
      const parentAcl =
        options?.parentAcl === undefined
          ? undefined
          : aclArg(options.parentAcl, operation, path, 'parentAcl');
      const parents = options?.createParents;
      const attempt = (parentRoundsLeft: number): Promise<R> => {
        const xid = this.core.begin();
        const frame = encodeCreate(xid, args, withStat);
        return this.core.submit(decoder, xid, frame, path, undefined, options, (request) => {
          if (parentRoundsLeft === 0) return;
          request.recover = (error) => {
            if (!isNoNode(error)) return undefined;
            // Parents get `parentAcl` (default open), never the node's own `acl`.
            const mode = parents === 'container' ? 'container' : 'persistent';
            const parentOptions = { signal: options?.signal, timeoutMs: options?.timeoutMs, acl: parentAcl };
            const created = this.ensurePath(parent(path), mode, parentOptions).then(() =>
              attempt(parentRoundsLeft - 1),
            );
            return { value: created };
          };
        });
      };
      return attempt(parents !== undefined && parents !== false ? PARENT_ROUNDS : 0);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Creates every missing node of `path` (not only its parents), as persistent nodes or containers with
   * open ACLs unless `acl` is given. Nodes made concurrently by others are fine.
   */
  ensurePath(
    path: string,
    mode: 'persistent' | 'container' = 'persistent',
    options?: CallOptions & { acl?: ACL[] },
  ): Promise<void> {
    return ensurePath(this, path, mode, options);
  }

  /**
   * Deletes a node; `version` (default -1 = any) must match its data version. With `guaranteed` (Curator's
   * `guaranteed()`), a delete met by connection loss is retried until the node is known gone; `signal` and
   * `timeoutMs` then end only the wait (several requests: outside the order promise).
   */
  delete(path: string, options?: CallOptions & { version?: number; guaranteed?: boolean }): Promise<void> {
    if (options?.guaranteed === true) {
      try {
        this.core.serverPath(path, 'delete');
        const version = versionArg(options.version, 'delete', path);
        return deleteGuaranteed(this, path, version, options);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    try {
      if (options?.guaranteed !== undefined && options.guaranteed !== false) {
        throw new InvalidArgumentError('guaranteed', 'must be a boolean', { operation: 'delete', path });
      }
      const chrootPath = this.core.serverPath(path, 'delete');
      // As the Java client: "/" goes out as "/" even under a chroot, so the server refuses it (BADARGUMENTS)
      // instead of deleting the chroot node.
      const serverPath = path === '/' ? '/' : chrootPath;
      const version = versionArg(options?.version, 'delete', path);
      const xid = this.core.begin();
      return this.core.submit(
        deleteReply,
        xid,
        encodeDelete(xid, serverPath, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Deletes a node and its whole subtree, children first; nodes already gone are fine. */
  deleteRecursive(path: string, options?: CallOptions): Promise<void> {
    return deleteRecursive(this, path, options);
  }

  /** Replaces the node's data; `version` (default -1 = any) must match. Resolves with the new Stat. */
  setData(path: string, data: Data, options?: CallOptions & { version?: number }): Promise<Stat> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'setData');
      const bytes = dataBytes(data, core.maxDataLength, 'setData', path);
      const version = versionArg(options?.version, 'setData', path);
      const xid = core.begin();
      return core.submit(
        setDataReply,
        xid,
        encodeSetData(xid, serverPath, bytes, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Replaces the node's ACL; `version` (default -1) must match its aversion. Resolves with the new Stat. */
  setACL(path: string, acl: ACL[], options?: CallOptions & { version?: number }): Promise<Stat> {
    try {
      const serverPath = this.core.serverPath(path, 'setACL');
      const list = aclArg(acl, 'setACL', path);
      const version = versionArg(options?.version, 'setACL', path);
      const xid = this.core.begin();
      const frame = encodeSetACL(xid, serverPath, list, version);
      return this.core.submit(setACLReply, xid, frame, path, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs ops atomically. Resolves with one result per op; on failure rejects with MultiError, whose
   * `results` holds the error of each op (the failing one, and RUNTIMEINCONSISTENCY / OK for the others).
   */
  multi(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    try {
      const { xid, frame, context } = encodeMultiCall(this.core, ops);
      // Nothing to send: answered locally, in its place.
      const setup =
        context.types.length === 0
          ? (request: { local: unknown }) => void (request.local = { value: [] })
          : undefined;
      return this.core.submit(multiReply, xid, frame, undefined, context, options, setup);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // ---- watches ----------------------------------------------------------------------------------------

  /** Adds a persistent (or persistent-recursive) watch, which stays until removed (server 3.6.0+). */
  addWatch(path: string, mode: AddWatchModeName, watcher: Watcher, options?: CallOptions): Promise<void> {
    return addWatch(this.core, path, mode, watcher, options);
  }

  /**
   * Persistent watch events as an async iterable. The watch is added on the first read; breaking out of
   * the loop (or aborting `signal`) removes it. The loop ends when the client closes, and throws
   * SessionExpiredError when the session expires.
   */
  watchPersistent(
    path: string,
    options: { recursive?: boolean; signal?: AbortSignal } = {},
  ): AsyncIterable<WatchEvent> {
    return watchPersistent(this.core, path, options);
  }

  /**
   * Removes watches of a type at a path: one watcher (`watcher`), or all. The server watch is removed
   * (removeWatches) once no local watcher needs it, else only checked (checkWatches). Each removed watcher
   * gets a dataWatchRemoved / childWatchRemoved / persistentWatchRemoved event. With `local`, watchers are
   * removed locally even when the server cannot be asked.
   */
  removeWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher; local?: boolean } = {},
  ): Promise<void> {
    return removeWatches(this.core, path, type, options);
  }

  /** Checks that the server holds a watch of the type at the path for this connection (NoWatcher if not). */
  checkWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher } = {},
  ): Promise<void> {
    return checkWatches(this.core, path, type, options);
  }
}

/** Creates a client; it starts connecting at once. */
export function createClient(options: ClientOptions): ZooKeeperClient {
  return new ZooKeeperClient(options);
}

/** Creates a client and resolves once it is connected (`callOptions` bound the wait). */
export async function connect(options: ClientOptions, callOptions?: CallOptions): Promise<ZooKeeperClient> {
  const client = new ZooKeeperClient(options);
  try {
    await client.connected(callOptions);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
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
